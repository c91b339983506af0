import { fileProgress } from '../core/progress.ts';
import { area } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { bdnbSource, rnbSource } from '../../datasets/fr/buildings/source.ts';
import { BUILDING_LINK_COLUMNS, type BuildingAttributes } from '../../schemas/tables/buildings.ts';
import { assignIds } from '../core/id-registry.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { AreasWriter } from '../core/kinds/areas.ts';
import { readCsv } from '../core/readers/csv.ts';
import { Rejects } from '../core/rejects.ts';
import { StageDatabase, StagedRows, TableWriter, fileSha256, type PreparedTable } from '../core/table-writer.ts';
import { basename } from 'node:path';
import { requireColumns } from '../core/columns.ts';

export const BUILDINGS_TABLE = 'buildings';
export const BUILDING_LINKS_TABLE = 'building_links';
const RNB_COLUMNS = ['rnb_id', 'point', 'shape', 'status', 'ext_ids', 'addresses'];
const BDNB_COLUMNS = ['batiment_groupe_id', 'code_departement_insee', 'rnb_id', 'parcelle_unifiee_id', 'ffo_bat_annee_construction', 'ffo_bat_nb_log', 'ffo_bat_nb_niveau', 'ffo_bat_mat_mur_txt', 'ffo_bat_mat_toit_txt', 'ffo_bat_usage_niveau_1_txt', 'bdtopo_bat_hauteur_mean'];
/** RNB statuses of a building standing (or being built); a demolished one is not served. */
const STANDING = new Set(['constructed', 'ongoingChange', 'notUsable', 'ongoingConstruction']);

const WALLS: Record<string, string> = { PIERRE: 'stone', MEULIERE: 'stone', BRIQUES: 'brick', BETON: 'concrete', AGGLOMERE: 'concrete', BOIS: 'wood' };
const ROOFS: Record<string, string> = { TUILES: 'tiles', ARDOISES: 'slate', 'ZINC ALUMINIUM': 'metal', BETON: 'concrete', BOIS: 'wood' };
const TYPES: Record<string, BuildingAttributes['type']> = { 'Résidentiel collectif': 'apartment_building', 'Résidentiel individuel': 'house', Mixte: 'mixed_use', Tertiaire: 'other', Commercial: 'other', Industriel: 'other' };

/** A WKT POLYGON or MULTIPOLYGON in WGS84 as GeoJSON, or null. */
export function polygonOfWkt(wkt: string): Polygon | MultiPolygon | null {
  const m = /^\s*(?:SRID=\d+;)?\s*(MULTIPOLYGON|POLYGON)\s*(\(.*\))\s*$/i.exec(wkt);
  if (!m) return null;
  const nums = (s: string) => s.trim().split(/\s*,\s*/).map((p) => p.trim().split(/\s+/).map(Number).slice(0, 2) as [number, number]);
  const rings = (s: string) => [...s.matchAll(/\(([^()]+)\)/g)].map((r) => nums(r[1]!));
  try {
    if (m[1]!.toUpperCase() === 'POLYGON') {
      const coordinates = rings(m[2]!);
      return coordinates.length > 0 && coordinates.every((r) => r.length >= 4 && r.flat().every(Number.isFinite)) ? { type: 'Polygon', coordinates } : null;
    }
    const polys = [...m[2]!.slice(1, -1).matchAll(/\((\s*\([^()]+\)\s*(?:,\s*\([^()]+\)\s*)*)\)/g)].map((p) => rings(p[1]!));
    return polys.length > 0 && polys.every((p) => p.every((r) => r.length >= 4 && r.flat().every(Number.isFinite))) ? { type: 'MultiPolygon', coordinates: polys } : null;
  } catch { return null; }
}

interface Bdnb {
  id: string; department: string; parcel: string | null; year: number | null; dwellings: number | null; levels: number | null; walls: string | null; roof: string | null; use: string | null; height: number | null;
  /** Mérimée's nearest historic monument within 500 m; undefined when the export has no Mérimée columns. */
  monument?: { name: string; distance_m: number } | null;
  /** Enedis's residential consumption per meter by year; undefined when the export has none. */
  electricity?: { year: number; kwh: number }[];
  /** RPLS social dwellings of the group (null: the RPLS names none); undefined when the export has no RPLS column. */
  social?: number | null;
}
/** BDNB's Mérimée columns (batiment_groupe_merimee): the nearest historic monument, when within 500 m. */
const MONUMENT_NAME = 'merimee_nom_batiment_historique_plus_proche', MONUMENT_DISTANCE = 'merimee_distance_batiment_historique_plus_proche';
/** BDNB's Enedis columns (données locales de l'énergie), one per year of consumption: residential kWh per delivery point. */
const ELECTRICITY = /^dle_elec_(\d{4})_conso_res_par_pdl$/;
/** BDNB's RPLS column (batiment_groupe_rpls.nb_log, named rpls_ in the compiled export): social dwellings of the group. */
const SOCIAL = 'rpls_nb_log';
/** BDNB's owner tables (DGFiP's fichiers des locaux des personnes morales): the legal person, and its premises in a group. */
const OWNER_COLUMNS = ['personne_id', 'siren', 'forme_juridique', 'denomination'];
const OWNER_LINK_COLUMNS = ['batiment_groupe_id', 'personne_id', 'nb_locaux_open'];
export type LegalOwner = NonNullable<BuildingAttributes['legal_owners']>[number];
const text = (s: string | undefined) => { const t = (s ?? '').trim(); return t === '' ? null : t; };
const whole = (s: string | undefined) => { const t = text(s); if (t === null) return null; const n = Number(t); return Number.isInteger(n) && n >= 0 ? n : undefined; };

/**
 * The BDNB groups of a compiled export, each with its RNB id and line, handed to `each` as read (a
 * group without RNB id cannot be joined: rejected); nothing is held. Of two groups naming one RNB
 * id, the later line is the building's (the caller keeps it).
 */
async function readBdnb(path: string, rejects: { line: number; why: string; raw: unknown }[], each: (rnb: string, line: number, g: Bdnb) => void): Promise<{ heritage: boolean; electricity: boolean; social: boolean }> {
  let first = true;
  let heritage = false, social = false, electricity: { column: string; year: number }[] = [];
  for await (const row of readCsv(path, { separator: ',' })) {
    if (first) {
      const header = Object.keys(row.record);
      requireColumns(header, BDNB_COLUMNS, 'the BDNB batiment_groupe_compile export');
      // Optional groups of columns: an export without them leaves the fields unavailable, not empty.
      heritage = header.includes(MONUMENT_NAME) && header.includes(MONUMENT_DISTANCE);
      electricity = header.flatMap((c) => { const m = ELECTRICITY.exec(c); return m ? [{ column: c, year: Number(m[1]) }] : []; }).sort((a, b) => a.year - b.year);
      social = header.includes(SOCIAL);
      first = false;
    }
    const r = row.record;
    if (row.error) { rejects.push({ line: row.line, why: `BDNB: ${row.error}`, raw: r }); continue; }
    const rnb = text(r.rnb_id);
    const numbers = { year: whole(r.ffo_bat_annee_construction), dwellings: whole(r.ffo_bat_nb_log), levels: whole(r.ffo_bat_nb_niveau) };
    const height = text(r.bdtopo_bat_hauteur_mean) === null ? null : Number(r.bdtopo_bat_hauteur_mean);
    const bad = Object.entries(numbers).find(([, v]) => v === undefined);
    if (!rnb || !/^[0-9A-Z]{12}$/.test(rnb)) { rejects.push({ line: row.line, why: `BDNB: rnb_id ${JSON.stringify(r.rnb_id ?? null)} is not an RNB id`, raw: r }); continue; }
    if (bad) { rejects.push({ line: row.line, why: `BDNB: ${bad[0]} is not a whole number`, raw: r }); continue; }
    if (height !== null && !(Number.isFinite(height) && height >= 0)) { rejects.push({ line: row.line, why: `BDNB: bdtopo_bat_hauteur_mean ${JSON.stringify(r.bdtopo_bat_hauteur_mean)} is not a height`, raw: r }); continue; }
    let monument: Bdnb['monument'];
    if (heritage) {
      const name = text(r[MONUMENT_NAME]), distance = text(r[MONUMENT_DISTANCE]) === null ? null : Number(r[MONUMENT_DISTANCE]);
      if (distance !== null && !(Number.isFinite(distance) && distance >= 0)) { rejects.push({ line: row.line, why: `BDNB: ${MONUMENT_DISTANCE} ${JSON.stringify(r[MONUMENT_DISTANCE])} is not a distance`, raw: r }); continue; }
      // A name without its distance (or the reverse) says nothing servable: none within 500 m is read as none.
      monument = name !== null && distance !== null ? { name, distance_m: distance } : null;
    }
    const kwh = electricity.map(({ column, year }) => ({ year, raw: text(r[column]) })).filter((e) => e.raw !== null).map(({ year, raw }) => ({ year, kwh: Number(raw) }));
    const badKwh = kwh.find((e) => !(Number.isFinite(e.kwh) && e.kwh >= 0));
    if (badKwh) { rejects.push({ line: row.line, why: `BDNB: dle_elec_${badKwh.year}_conso_res_par_pdl is not a consumption`, raw: r }); continue; }
    const rpls = social ? whole(r[SOCIAL]) : null;
    if (rpls === undefined) { rejects.push({ line: row.line, why: `BDNB: ${SOCIAL} ${JSON.stringify(r[SOCIAL])} is not a whole number of dwellings`, raw: r }); continue; }
    each(rnb, row.line, {
      ...(heritage ? { monument } : {}), ...(electricity.length > 0 ? { electricity: kwh } : {}), ...(social ? { social: rpls } : {}),
      id: text(r.batiment_groupe_id)!, department: text(r.code_departement_insee)!, parcel: text(r.parcelle_unifiee_id), year: numbers.year ?? null, dwellings: numbers.dwellings ?? null,
      levels: numbers.levels ?? null, walls: text(r.ffo_bat_mat_mur_txt), roof: text(r.ffo_bat_mat_toit_txt), use: text(r.ffo_bat_usage_niveau_1_txt), height,
    });
  }
  return { heritage, electricity: electricity.length > 0, social };
}

/**
 * The legal-person owners of each BDNB group, from the open export's `proprietaire` table (one
 * row per legal person: personne_id, siren, forme_juridique, denomination) and its
 * `rel_batiment_groupe_proprietaire` table (batiment_groupe_id, personne_id, nb_locaux_open: the
 * premises it holds in the group); most premises first. A SIREN that is not 9 digits, a person
 * without name or named twice, a link to an unknown person or a count of premises that is not a
 * whole number refuses its line.
 */
async function readOwners(owners: string, links: string, rejects: { line: number; why: string; raw: unknown }[]): Promise<Map<string, LegalOwner[]>> {
  const people = new Map<string, Omit<LegalOwner, 'premises'>>();
  let first = true;
  for await (const row of readCsv(owners, { separator: ',' })) {
    if (first) { requireColumns(Object.keys(row.record), OWNER_COLUMNS, 'the BDNB proprietaire table'); first = false; }
    const r = row.record;
    const fail = (why: string) => rejects.push({ line: row.line, why: `BDNB proprietaire: ${why}`, raw: r });
    if (row.error) { fail(row.error); continue; }
    const id = text(r.personne_id), name = text(r.denomination), siren = text(r.siren);
    if (!id) { fail('personne_id is empty'); continue; }
    if (people.has(id)) { fail(`personne_id ${id} is named twice`); continue; }
    if (!name) { fail(`denomination of ${id} is empty`); continue; }
    if (siren !== null && !/^\d{9}$/.test(siren)) { fail(`siren ${JSON.stringify(r.siren)} is not 9 digits`); continue; }
    people.set(id, { name, siren, legal_form: text(r.forme_juridique) });
  }
  const out = new Map<string, LegalOwner[]>();
  first = true;
  for await (const row of readCsv(links, { separator: ',' })) {
    if (first) { requireColumns(Object.keys(row.record), OWNER_LINK_COLUMNS, 'the BDNB rel_batiment_groupe_proprietaire table'); first = false; }
    const r = row.record;
    const fail = (why: string) => rejects.push({ line: row.line, why: `BDNB rel_batiment_groupe_proprietaire: ${why}`, raw: r });
    if (row.error) { fail(row.error); continue; }
    const group = text(r.batiment_groupe_id), person = people.get(text(r.personne_id) ?? ''), premises = whole(r.nb_locaux_open);
    if (!group) { fail('batiment_groupe_id is empty'); continue; }
    if (!person) { fail(`personne_id ${JSON.stringify(r.personne_id)} is not in the proprietaire table`); continue; }
    if (premises === undefined) { fail(`nb_locaux_open ${JSON.stringify(r.nb_locaux_open)} is not a whole number`); continue; }
    const list = out.get(group) ?? [];
    list.push({ ...person, premises });
    out.set(group, list);
  }
  for (const list of out.values()) list.sort((a, b) => (b.premises ?? -1) - (a.premises ?? -1) || a.name.localeCompare(b.name));
  return out;
}

/**
 * The RNB's departmental export (`RNB_<dep>.csv`: rnb_id, WKT point and footprint, status, ext_ids
 * and BAN addresses as JSON) joined with the BDNB open export's compiled building groups (by RNB
 * id) into fr/buildings (areas table kind: the footprint, id = our bld_ id from the registry keyed
 * by the RNB id and the BDNB group id) and fr/building_links (address, parcel, rnb, bdnb), one
 * partition per department named from the rows (`rnb-75`). Each characteristic keeps the value of
 * every source (fichiers fonciers, BD TOPO) for the Feature's alternatives. The export's optional
 * columns (Mérimée, Enedis, RPLS) and owner tables (`owners`: proprietaire and
 * rel_batiment_groupe_proprietaire) feed their fields when given; without them the fields are left
 * out of the record (served unavailable). Demolished buildings are skipped; broken rows rejected
 * with their line; a file lacking a column fails naming it.
 */
export async function ingestBuildings(ctx: JobContext, o: { rnb: JobInput; bdnb?: JobInput | null; owners?: { owners: JobInput; links: JobInput } | null }): Promise<PartitionSummary[]> {
  // The department's rows are not held in JS (their count grows with the department): the BDNB
  // groups and the RNB rows are staged in DuckDB as read (its memory limit, spilling to disk),
  // joined there, and read back in order, a chunk at a time, to write the tables.
  await AreasWriter.cleanStale(ctx.dataDir, 'fr', BUILDINGS_TABLE);
  const stage = await StageDatabase.open(ctx.dataDir, 'fr', 'fr.buildings');
  const writers: { department: string; areas: AreasWriter; links: TableWriter; rejects: Rejects }[] = [];
  try {
    const c = stage.connection;
    await c.run(`SET memory_limit = '512MB'`);
    const early: { line: number; why: string; raw: unknown }[] = [];
    const bdnbRows = await StagedRows.create(c, 'bdnb', {
      g_line: 'INTEGER', g_rnb: 'VARCHAR', g_id: 'VARCHAR', g_department: 'VARCHAR', g_parcel: 'VARCHAR', g_year: 'DOUBLE', g_dwellings: 'DOUBLE', g_levels: 'DOUBLE',
      g_walls: 'VARCHAR', g_roof: 'VARCHAR', g_use: 'VARCHAR', g_height: 'DOUBLE', g_monument: 'VARCHAR', g_electricity: 'VARCHAR', g_social: 'DOUBLE',
    });
    const read = o.bdnb
      ? await readBdnb(o.bdnb.path, early, (rnb, line, g) => bdnbRows.append([line, rnb, g.id, g.department, g.parcel, g.year, g.dwellings, g.levels, g.walls, g.roof, g.use, g.height,
        g.monument === undefined ? null : JSON.stringify(g.monument), g.electricity === undefined ? null : JSON.stringify(g.electricity), g.social ?? null]))
      : { heritage: false, electricity: false, social: false };
    bdnbRows.close();
    const bdnbHeritage = read.heritage, bdnbElectricity = read.electricity, bdnbSocial = read.social;
    // Of two groups naming one RNB id, the later line (as a map keyed by RNB id would keep).
    await c.run(`CREATE TABLE g AS SELECT * FROM bdnb QUALIFY row_number() OVER (PARTITION BY g_rnb ORDER BY g_line DESC) = 1`);
    await c.run(`DROP TABLE bdnb`);
    // The owner tables of the same export (optional): without them legal_owners stays unavailable.
    const owners = o.bdnb && o.owners ? await readOwners(o.owners.owners.path, o.owners.links.path, early) : null;
    const date = o.bdnb?.publishedAt?.slice(0, 10) ?? null;
    const rejected: { line: number; why: string; raw: unknown }[] = [];
    const rnbRows = await StagedRows.create(c, 'rnb', { line: 'INTEGER', rnb: 'VARCHAR', shape: 'VARCHAR', addresses: 'VARCHAR', addr_dep: 'VARCHAR', raw: 'VARCHAR' });
    let first = true, skipped = 0, total = 0;
    for await (const row of readCsv(o.rnb.path, { separator: ';', progress: fileProgress(ctx, 'fr.buildings', o.rnb.path) })) {
      if (first) {
        requireColumns(Object.keys(row.record), RNB_COLUMNS, 'the RNB export');
        first = false;
      }
      total++;
      const r = row.record;
      const fail = (why: string) => rejected.push({ line: row.line, why, raw: r });
      if (row.error) { fail(row.error); continue; }
      const rnb = (r.rnb_id ?? '').trim().replaceAll('-', '');
      if (!/^[0-9A-Z]{12}$/.test(rnb)) { fail(`rnb_id ${JSON.stringify(r.rnb_id)} is not a 12-character RNB id`); continue; }
      if (!STANDING.has((r.status ?? '').trim())) { if ((r.status ?? '').trim() === 'demolished') { skipped++; continue; } fail(`status ${JSON.stringify(r.status)} is not an RNB status`); continue; }
      // Checked here, parsed again when written (the outline is not held).
      if (!polygonOfWkt(r.shape ?? '')) { fail('shape is not a WKT POLYGON or MULTIPOLYGON (a building known by its point only has no footprint)'); continue; }
      let addresses: string[];
      try {
        const list = JSON.parse(text(r.addresses) ?? '[]') as { id?: unknown; source?: unknown }[];
        addresses = list.filter((a) => a.source === 'ban' && typeof a.id === 'string').map((a) => a.id as string);
      } catch { fail('addresses is not a JSON list'); continue; }
      const fromAddress = addresses[0] ? (addresses[0].startsWith('97') ? addresses[0].slice(0, 3) : addresses[0].slice(0, 2)) : null;
      // The department is the BDNB group's, else the address's (joined in DuckDB); a row with neither is refused then, with the record kept for its reject.
      rnbRows.append([row.line, rnb, r.shape ?? '', JSON.stringify(addresses), fromAddress, fromAddress === null ? JSON.stringify(r) : null]);
    }
    rnbRows.close();
    if (total === 0) throw new Error(`no building in ${o.rnb.path}`);
    await c.run(`CREATE TABLE rows AS SELECT r.line, r.rnb, r.shape, r.addresses, coalesce(g.g_department, r.addr_dep) AS department, g.* EXCLUDE (g_rnb)
      FROM rnb r LEFT JOIN g ON g.g_rnb = r.rnb WHERE coalesce(g.g_department, r.addr_dep) IS NOT NULL`);
    const q = async <T>(sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJS() as T[];
    const homeless = await q<{ line: number; raw: string }>(`SELECT r.line, r.raw FROM rnb r LEFT JOIN g ON g.g_rnb = r.rnb WHERE coalesce(g.g_department, r.addr_dep) IS NULL ORDER BY r.line`);
    await c.run(`DROP TABLE rnb`);
    // The rows' refusals in line order, as read.
    const refused = [...rejected, ...homeless.map((h) => ({ line: h.line, why: 'no department: neither a BDNB group nor a BAN address names one', raw: JSON.parse(h.raw) as unknown }))].sort((a, b) => a.line - b.line);
    const all = [...early, ...refused];
    const perDepartment = await q<{ department: string; n: number }>(`SELECT department, count(*)::INTEGER AS n FROM rows GROUP BY department ORDER BY department`);
    const departments = perDepartment.map((d) => d.department);
    if (departments.length === 0) throw new Error(`no building of ${o.rnb.path} could be read: ${all[0]?.why}`);
    const [{ groups }] = await q<{ groups: number }>(`SELECT count(*)::INTEGER AS groups FROM g`);
    await c.run(`DROP TABLE g`);

    // Registry shard of the department (rnb-<dep>): a department's run reads its own keys only.
    await c.run(`CREATE TABLE req AS SELECT rnb AS ref, 'rnb:' || rnb AS key, 'rnb-' || department AS shard FROM rows
      UNION ALL SELECT rnb, 'bdnb:' || coalesce(g_id, 'null'), 'rnb-' || department FROM rows WHERE g_line IS NOT NULL`);
    await assignIds(c, ctx, { country: 'fr', kind: 'bld', source: rnbSource.id, job: 'fr.buildings', request: 'req', out: 'ids' });
    await c.run(`DROP TABLE req`);
    for (const department of departments) {
      const partition = `rnb-${department}`;
      const rejects = new Rejects(ctx.dataDir, 'fr', BUILDINGS_TABLE, partition, ctx.maxRejectShare);
      await rejects.init();
      const areas = await AreasWriter.open(ctx.dataDir, 'fr', BUILDINGS_TABLE, partition, rnbSource.id, stage);
      const links = await TableWriter.open({ dataDir: ctx.dataDir, country: 'fr', table: BUILDING_LINKS_TABLE, partition, columns: BUILDING_LINK_COLUMNS, orderBy: 'key' }, stage);
      writers.push({ department, areas, links, rejects });
    }
    const at = (d: string) => writers.find((w) => w.department === d)!;
    for (const x of all) at(departments[0]!).rejects.add(x.line, x.why, x.raw);
    const doc = { type: 'building_record' as const, date };
    const sourced = (v: number | null, source: string) => (v === null ? [] : [{ value: v, document: doc, source }]);
    // Two RNB rows a source shows to be one building (the registry gave them one id): the first is served.
    const reader = await stage.instance.connect();
    try {
      const result = await reader.stream(`SELECT x.*, i.id, first_value(x.rnb) OVER (PARTITION BY i.id ORDER BY x.line) AS first_rnb, row_number() OVER (PARTITION BY i.id ORDER BY x.line) AS nth FROM rows x JOIN ids i ON i.ref = x.rnb ORDER BY x.line`);
      for await (const chunk of result.yieldRowObjectJs()) {
        for (const x of chunk as unknown as StagedRow[]) {
          const id = x.id;
          if (x.nth > 1) { at(x.department).rejects.add(x.line, `same building as RNB ${x.first_rnb} (one id of ours: the sources name them together)`, { rnb_id: x.rnb }); continue; }
          const geometry = polygonOfWkt(x.shape)!, addresses = JSON.parse(x.addresses) as string[];
          const g: Bdnb | null = x.g_line === null ? null : {
            ...(bdnbHeritage ? { monument: JSON.parse(x.g_monument!) as Bdnb['monument'] } : {}), ...(bdnbElectricity ? { electricity: JSON.parse(x.g_electricity!) as Bdnb['electricity'] } : {}), ...(bdnbSocial ? { social: x.g_social } : {}),
            id: x.g_id!, department: x.g_department!, parcel: x.g_parcel, year: x.g_year, dwellings: x.g_dwellings, levels: x.g_levels, walls: x.g_walls, roof: x.g_roof, use: x.g_use, height: x.g_height,
          };
          const parcels = g?.parcel ? [g.parcel] : [];
          const attributes: BuildingAttributes = {
            rnb_id: x.rnb, bdnb_id: g?.id ?? null, department: x.department, type: g?.use ? TYPES[g.use] ?? 'other' : null, address_ids: addresses, parcels,
            footprint_m2: Math.round(area(geometry)),
            construction_year: sourced(g?.year ?? null, `${bdnbSource.id}:ffo`), levels: sourced(g?.levels ?? null, `${bdnbSource.id}:ffo`),
            dwellings: sourced(g?.dwellings ?? null, `${bdnbSource.id}:ffo`), height_m: sourced(g?.height ?? null, `${bdnbSource.id}:bdtopo`),
            materials: { walls: g?.walls ? WALLS[g.walls] ?? 'other' : null, roof: g?.roof ? ROOFS[g.roof] ?? 'other' : null },
            ...(bdnbHeritage ? { historic_monument: g?.monument ?? null } : {}),
            ...(bdnbElectricity ? { electricity_per_meter: g?.electricity ?? [] } : {}),
            ...(bdnbSocial ? { social_housing_dwellings: g?.social ?? null } : {}),
            ...(owners ? { legal_owners: g ? owners.get(g.id) ?? [] : [] } : {}),
          };
          const w = at(x.department);
          const why = w.areas.add({ id, layer: 'building', geometry, attributes });
          if (why) { w.rejects.add(x.line, why, { rnb_id: x.rnb }); continue; }
          w.links.append([id, 'rnb', x.rnb]);
          if (g) w.links.append([id, 'bdnb', g.id]);
          for (const a of addresses) w.links.append([id, 'address', a]);
          for (const p of parcels) w.links.append([id, 'parcel', p]);
        }
      }
    } finally {
      reader.closeSync();
    }
    const prepared: { department: string; rejects: Rejects; tables: { table: string; prepared: PreparedTable }[] }[] = [];
    for (const w of writers) {
      w.rejects.check(perDepartment.find((d) => d.department === w.department)!.n + w.rejects.count);
      await w.rejects.close();
      prepared.push({ department: w.department, rejects: w.rejects, tables: [...await w.areas.prepare(), { table: BUILDING_LINKS_TABLE, prepared: await w.links.prepare() }] });
    }
    const out: PartitionSummary[] = [];
    // The BDNB export is the partition's second input: the manifest lists it beside the RNB's.
    const entry = async (i: JobInput) => ({ id: bdnbSource.id, input: basename(i.path), input_sha256: i.sha256 ?? await fileSha256(i.path), published_at: i.publishedAt ?? null, downloaded_from: i.downloadedFrom ?? null });
    const bdnbEntry = o.bdnb ? [await entry(o.bdnb), ...(owners && o.owners ? [await entry(o.owners.owners), await entry(o.owners.links)] : [])] : [];
    for (const p of prepared) out.push(...await publish(ctx, 'fr', 'fr.buildings', rnbSource, o.rnb, `rnb-${p.department}`, p.tables, p.rejects, { kept: bdnbEntry }));
    ctx.log(`fr.buildings: ${perDepartment.reduce((n, d) => n + d.n, 0)} buildings, ${skipped} demolished skipped, ${groups} BDNB groups read`);
    return out;
  } catch (e) {
    for (const w of writers) { await w.rejects.close(); await w.areas.abort(); await w.links.abort(); }
    throw e;
  } finally {
    await stage.close();
  }
}

/** A row of the staged join read back (RNB row, its BDNB group's columns or nulls, its id). */
interface StagedRow {
  line: number; rnb: string; shape: string; addresses: string; department: string; id: string; first_rnb: string; nth: bigint;
  g_line: number | null; g_id: string | null; g_department: string | null; g_parcel: string | null; g_year: number | null; g_dwellings: number | null; g_levels: number | null;
  g_walls: string | null; g_roof: string | null; g_use: string | null; g_height: number | null; g_monument: string | null; g_electricity: string | null; g_social: number | null;
}
