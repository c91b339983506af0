import { fileProgress } from '../core/progress.ts';
import { existsSync, readdirSync } from 'node:fs';
import { booleanPointInPolygon } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { quotedString } from '@duckdb/node-api';
import { rnicSource } from '../../datasets/fr/copro/source.ts';
import { COPRO_ATTACHMENTS, COPRO_COLUMNS, type CoproAttachment } from '../../schemas/tables/copro.ts';
import { tableDir, tableGlob } from '../../schemas/tables/layout.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { readCsv } from '../core/readers/csv.ts';
import { Rejects } from '../core/rejects.ts';
import { Stage } from '../core/stage.ts';
import type { PreparedTable } from '../core/table-writer.ts';

export const COPRO_TABLE = 'copro';

/** Columns of the RNIC open-data export the job reads; a file lacking one is not the registry. */
export const RNIC_COLUMNS = [
  'numero_immatriculation', 'nom_usage_copropriete', 'date_immatriculation', 'date_derniere_maj', 'type_syndic', 'raison_sociale_representant_legal',
  'siret_representant_legal', 'mandat_en_cours', 'date_fin_dernier_mandat', 'adresse_reference', 'numero_voie_adresse', 'code_postal_adresse',
  'longitude', 'latitude', 'date_reglement_copropriete', 'nombre_total_lots', 'nombre_lots_habitation', 'nombre_lots_stationnement', 'periode_construction',
  'reference_cadastrale_1', 'code_insee_parcelle_1', 'prefixe_parcelle_1', 'section_parcelle_1', 'numero_parcelle_1',
  'reference_cadastrale_2', 'reference_cadastrale_3', 'code_officiel_commune',
] as const;

/** periode_construction codes of the registry -> ours (NON_CONNUE is null). */
const PERIODS: Record<string, string> = {
  AVANT_1949: 'before_1949', DE_1949_A_1960: '1949_1960', DE_1961_A_1974: '1961_1974', DE_1975_A_1993: '1975_1993',
  DE_1994_A_2000: '1994_2000', DE_2001_A_2010: '2001_2010', A_COMPTER_DE_2011: '2011_or_later',
};
const MANAGERS: Record<string, 'professional' | 'volunteer' | 'cooperative'> = { professionnel: 'professional', 'bénévole': 'volunteer', benevole: 'volunteer', 'coopératif': 'cooperative', cooperatif: 'cooperative' };
const MANDATES: Record<string, boolean> = { 'mandat en cours': true, 'pas de mandat en cours': false, 'mandat expiré': false, oui: true, non: false };
/** How the registry writes an unknown value ("non connu" on text, NON_CONNUE on the period). */
const UNKNOWN = /^(non connue?|non renseignée?|non_connue?|)$/i;

/** One co-ownership as read from its line, before attachment. */
export interface RegisteredCopro {
  registration_number: string; name: string | null; registered_on: string | null; regulation_on: string | null; construction_period: string | null;
  lots_total: number | null; lots_dwellings: number | null; lots_parking: number | null;
  manager_type: 'professional' | 'volunteer' | 'cooperative' | null; manager_name: string | null; manager_siret: string | null; mandate_active: boolean | null; mandate_ends_on: string | null;
  address: string | null; number: number | null; rep: string; street: string | null; postcode: string | null;
  parcels: string[]; commune_code: string; longitude: number | null; latitude: number | null; updated_on: string | null; department_code: string;
}

const known = (s: string | undefined) => { const t = (s ?? '').trim(); return UNKNOWN.test(t) ? null : t; };

/** A YYYY-MM-DD date that exists, null when unknown, undefined when malformed. */
function isoDate(s: string | undefined): string | null | undefined {
  const t = known(s);
  if (t === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? t : undefined;
}

function whole(s: string | undefined): number | null | undefined {
  const t = known(s);
  if (t === null) return null;
  return /^\d{1,6}$/.test(t) ? Number(t) : undefined;
}

function degrees(s: string | undefined, max: number): number | null | undefined {
  const t = known(s);
  if (t === null) return null;
  const v = Number(t);
  return /^-?\d+(\.\d+)?$/.test(t) && Math.abs(v) <= max ? v : undefined;
}

/**
 * A parcel of the registry as the cadastre's 14-character id, null when unknown, undefined when
 * malformed. The registry writes the parcels of Paris, Lyon and Marseille with the city's code and
 * the arrondissement in the prefix (75056 115 DH 0016), the cadastre with the arrondissement's
 * code (75115 000 DH 0016): brought to the cadastre's form.
 */
export function parcelId(reference: string | undefined, parts: { insee?: string; prefix?: string; section?: string; number?: string } = {}): string | null | undefined {
  let ref = known(reference)?.toUpperCase().replace(/\s+/g, '') ?? null;
  if (ref === null) {
    const [insee, section, number] = [known(parts.insee), known(parts.section), known(parts.number)];
    if (insee === null || section === null || number === null) return null;
    ref = `${insee}${(known(parts.prefix) ?? '000').padStart(3, '0')}${section.toUpperCase().padStart(2, '0')}${number.padStart(4, '0')}`;
  }
  const m = /^(\d{2}[0-9AB]\d{2}|97\d{3})(\d{3})([0-9A-Z]{2})(\d{4})$/.exec(ref);
  if (!m) return undefined;
  let [, commune, prefix] = m as unknown as [string, string, string];
  const p = Number(prefix);
  if (commune === '75056' && p >= 101 && p <= 120) [commune, prefix] = [`751${prefix.slice(1)}`, '000'];
  else if (commune === '69123' && p >= 381 && p <= 389) [commune, prefix] = [`6938${prefix.slice(2)}`, '000'];
  else if (commune === '13055' && p >= 201 && p <= 216) [commune, prefix] = [`132${prefix.slice(1)}`, '000'];
  return `${commune}${prefix}${m[3]}${m[4]}`;
}

/** Number, suffix (first letter: b for bis, as the BAN's short form) and street of numero_voie_adresse. */
export function splitStreet(s: string | undefined): { number: number | null; rep: string; street: string | null } {
  const t = known(s);
  if (t === null) return { number: null, rep: '', street: null };
  const m = /^(\d{1,4})\s*(bis|ter|quater|quinquies|[a-z](?=\s))?\s+(.+)$/i.exec(t);
  return m ? { number: Number(m[1]), rep: (m[2] ?? '').slice(0, 1).toLowerCase(), street: m[3]!.trim() } : { number: null, rep: '', street: t };
}

/** The co-ownership of one line of the export, or the reason it is refused. */
export function readRnicRecord(r: Record<string, string>): RegisteredCopro | { why: string } {
  const number = (r.numero_immatriculation ?? '').trim();
  if (!/^[A-Z]{2}\d{7}$/.test(number)) return { why: `numero_immatriculation ${JSON.stringify(r.numero_immatriculation ?? null)} is not a registration number (two letters, seven digits)` };
  const commune = (r.code_officiel_commune ?? '').trim();
  if (!/^(\d{2}[0-9AB]\d{2}|97\d{3})$/.test(commune) && !/^2[AB]\d{3}$/.test(commune)) return { why: `code_officiel_commune ${JSON.stringify(r.code_officiel_commune ?? null)} is not an INSEE code` };
  const dates = { date_immatriculation: isoDate(r.date_immatriculation), date_reglement_copropriete: isoDate(r.date_reglement_copropriete), date_fin_dernier_mandat: isoDate(r.date_fin_dernier_mandat), date_derniere_maj: isoDate(r.date_derniere_maj) };
  const badDate = Object.entries(dates).find(([, v]) => v === undefined);
  if (badDate) return { why: `${badDate[0]} ${JSON.stringify(r[badDate[0]])} is not a YYYY-MM-DD date` };
  const lots = { nombre_total_lots: whole(r.nombre_total_lots), nombre_lots_habitation: whole(r.nombre_lots_habitation), nombre_lots_stationnement: whole(r.nombre_lots_stationnement) };
  const badLots = Object.entries(lots).find(([, v]) => v === undefined);
  if (badLots) return { why: `${badLots[0]} ${JSON.stringify(r[badLots[0]])} is not a whole number` };
  const [lng, lat] = [degrees(r.longitude, 180), degrees(r.latitude, 90)];
  if (lng === undefined || lat === undefined) return { why: `longitude/latitude ${JSON.stringify(`${r.longitude} ${r.latitude}`)} is not a WGS84 position` };
  const period = known(r.periode_construction);
  if (period !== null && !(period in PERIODS)) return { why: `periode_construction ${JSON.stringify(period)} is not a period of the registry` };
  const managerText = known(r.type_syndic)?.toLowerCase() ?? null;
  if (managerText !== null && !(managerText in MANAGERS)) return { why: `type_syndic ${JSON.stringify(r.type_syndic)} is not a manager type of the registry` };
  const mandateText = known(r.mandat_en_cours)?.toLowerCase() ?? null;
  if (mandateText !== null && !(mandateText in MANDATES)) return { why: `mandat_en_cours ${JSON.stringify(r.mandat_en_cours)} is not a mandate state of the registry` };
  const parcels: string[] = [];
  for (const i of [1, 2, 3]) {
    const p = parcelId(r[`reference_cadastrale_${i}`], { insee: r[`code_insee_parcelle_${i}`], prefix: r[`prefixe_parcelle_${i}`], section: r[`section_parcelle_${i}`], number: r[`numero_parcelle_${i}`] });
    if (p === undefined) return { why: `reference_cadastrale_${i} ${JSON.stringify(r[`reference_cadastrale_${i}`])} is not a cadastral parcel` };
    if (p !== null && !parcels.includes(p)) parcels.push(p);
  }
  const siret = known(r.siret_representant_legal);
  if (siret !== null && !/^\d{14}$/.test(siret)) return { why: `siret_representant_legal ${JSON.stringify(siret)} is not a SIRET` };
  const s = splitStreet(r.numero_voie_adresse);
  return {
    registration_number: number, name: known(r.nom_usage_copropriete), registered_on: dates.date_immatriculation!, regulation_on: dates.date_reglement_copropriete!,
    construction_period: period === null ? null : PERIODS[period]!, lots_total: lots.nombre_total_lots!, lots_dwellings: lots.nombre_lots_habitation!, lots_parking: lots.nombre_lots_stationnement!,
    manager_type: managerText === null ? null : MANAGERS[managerText]!, manager_name: known(r.raison_sociale_representant_legal), manager_siret: siret,
    mandate_active: mandateText === null ? null : MANDATES[mandateText]!, mandate_ends_on: dates.date_fin_dernier_mandat!,
    address: known(r.adresse_reference), number: s.number, rep: s.rep, street: s.street, postcode: known(r.code_postal_adresse),
    parcels, commune_code: commune, longitude: lng === null || lat === null ? null : lng, latitude: lng === null || lat === null ? null : lat,
    updated_on: dates.date_derniere_maj!, department_code: commune.startsWith('97') ? commune.slice(0, 3) : commune.slice(0, 2),
  };
}

const has = (dataDir: string, table: string) => existsSync(tableDir(dataDir, 'fr', table)) && readdirSync(tableDir(dataDir, 'fr', table)).some((f) => f.endsWith('.parquet'));
const lit = (v: string | number | boolean | null) => (v === null ? 'NULL' : typeof v === 'string' ? quotedString(v) : String(v));

/**
 * fr.copro: the national co-ownership registry (RNIC, ANAH's open-data CSV: UTF-8, comma, one line
 * per registered co-ownership, WGS84 longitude/latitude, "non connu" for unknown values) attached
 * to the buildings of fr.buildings, in this order (the first rule that names a building wins):
 * 1. sure, parcel_in_registry: every building linked to one of its parcels (a co-ownership is of
 *    the parcel and every building on it);
 * 2. sure, copro_in_diagnosis: the building of the address of a diagnosis (fr.dpe) carrying its number;
 * 3. probable, address_matches: its reference address (postcode, number, suffix, street key) is a
 *    BAN address linked to exactly one building;
 * 4. probable, position_in_footprint: its point falls in exactly one building footprint.
 * Otherwise it is kept with no building. One partition per department (rnic-75). Run after
 * fr.buildings, fr.dpe and fr.ban: the attachment reads what they published.
 */
export async function ingestCopro(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const copros: (RegisteredCopro & { line: number })[] = [];
  const refused: { line: number; why: string; raw: unknown; department: string | null }[] = [];
  const seen = new Map<string, number>();
  let first = true, total = 0;
  for await (const row of readCsv(input.path, { progress: fileProgress(ctx, 'fr.copro', input.path) })) {
    if (first) {
      const missing = RNIC_COLUMNS.filter((c) => !(c in row.record));
      if (missing.length > 0) throw new Error(`not the RNIC export: missing column(s) ${missing.join(', ')}; found ${Object.keys(row.record).slice(0, 8).join(', ')}...`);
      first = false;
    }
    total++;
    const fail = (why: string) => refused.push({ line: row.line, why, raw: row.record, department: null });
    if (row.error) { fail(row.error); continue; }
    const c = readRnicRecord(row.record);
    if ('why' in c) { fail(c.why); continue; }
    const before = seen.get(c.registration_number);
    if (before !== undefined) { refused.push({ line: row.line, why: `registration number ${c.registration_number} already read at line ${before}`, raw: row.record, department: c.department_code }); continue; }
    seen.set(c.registration_number, row.line);
    copros.push({ ...c, line: row.line });
  }
  if (total === 0) throw new Error(`no co-ownership in ${input.path}`);
  const departments = [...new Set(copros.map((c) => c.department_code))].sort();
  if (departments.length === 0) throw new Error(`no co-ownership of ${input.path} could be read: ${refused[0]?.why}`);

  const stage = await Stage.open(ctx.dataDir, 'fr.copro');
  try {
    const c = stage.connection;
    await c.run(`CREATE TABLE c (line INTEGER, registration_number VARCHAR, name VARCHAR, registered_on DATE, regulation_on DATE, construction_period VARCHAR,
      lots_total INTEGER, lots_dwellings INTEGER, lots_parking INTEGER, manager_type VARCHAR, manager_name VARCHAR, manager_siret VARCHAR, mandate_active BOOLEAN,
      mandate_ends_on DATE, address VARCHAR, number INTEGER, rep VARCHAR, street VARCHAR, postcode VARCHAR, parcels VARCHAR[], commune_code VARCHAR,
      longitude DOUBLE, latitude DOUBLE, updated_on DATE, department_code VARCHAR)`);
    for (let i = 0; i < copros.length; i += 500) {
      await c.run(`INSERT INTO c VALUES ${copros.slice(i, i + 500).map((x) => `(${[x.line, x.registration_number, x.name, x.registered_on, x.regulation_on, x.construction_period,
        x.lots_total, x.lots_dwellings, x.lots_parking, x.manager_type, x.manager_name, x.manager_siret, x.mandate_active, x.mandate_ends_on, x.address, x.number, x.rep, x.street,
        x.postcode].map(lit).join(', ')}, [${x.parcels.map(lit).join(', ')}]::VARCHAR[], ${[x.commune_code, x.longitude, x.latitude, x.updated_on, x.department_code].map(lit).join(', ')})`).join(', ')}`);
    }
    const read = (t: string, cols: string, empty: string) => (has(ctx.dataDir, t) ? `SELECT ${cols} FROM read_parquet(${quotedString(tableGlob(ctx.dataDir, 'fr', t))}, union_by_name = true)` : `SELECT ${empty} WHERE false`);
    await c.run(`CREATE TABLE links AS ${read('building_links', 'building_id, kind, key', 'NULL::VARCHAR AS building_id, NULL::VARCHAR AS kind, NULL::VARCHAR AS key')}`);
    await c.run(`CREATE TABLE att (registration_number VARCHAR, building_id VARCHAR, reason VARCHAR, rank INTEGER)`);
    // 1. The parcels the registry names.
    await c.run(`INSERT INTO att SELECT DISTINCT p.registration_number, l.building_id, 'parcel_in_registry', 1
      FROM (SELECT registration_number, unnest(parcels) AS parcel FROM c) p JOIN links l ON l.kind = 'parcel' AND l.key = p.parcel`);
    // 2. A diagnosis naming the co-ownership, at an address of a building.
    await c.run(`INSERT INTO att SELECT DISTINCT d.copro_number, l.building_id, 'copro_in_diagnosis', 2
      FROM (${read('diagnoses', 'copro_number, ban_id, superseded', 'NULL::VARCHAR AS copro_number, NULL::VARCHAR AS ban_id, NULL::BOOLEAN AS superseded')}) d
      JOIN links l ON l.kind = 'address' AND l.key = d.ban_id
      WHERE NOT d.superseded AND d.copro_number IN (SELECT registration_number FROM c) AND d.copro_number NOT IN (SELECT registration_number FROM att)`);
    // 3. The reference address, when it is a BAN address of exactly one building.
    await c.run(`INSERT INTO att SELECT c.registration_number, any_value(l.building_id), 'address_matches', 3
      FROM c JOIN (${read('addresses', 'id, number, rep, postcode, street_key', 'NULL::VARCHAR AS id, NULL::INTEGER AS number, NULL::VARCHAR AS rep, NULL::VARCHAR AS postcode, NULL::VARCHAR AS street_key')}) a
        ON a.postcode = c.postcode AND a.number = c.number AND coalesce(lower(left(a.rep, 1)), '') = c.rep AND a.street_key = street_key(c.street)
      JOIN links l ON l.kind = 'address' AND l.key = a.id
      WHERE c.street IS NOT NULL AND c.registration_number NOT IN (SELECT registration_number FROM att)
      GROUP BY c.registration_number HAVING count(DISTINCT l.building_id) = 1`);
    // 4. The point, when it falls in exactly one footprint (bounding boxes in SQL, the polygon here).
    const candidates = (await c.runAndReadAll(`SELECT c.registration_number AS n, c.longitude AS lng, c.latitude AS lat, b.id, b.geometry
      FROM c JOIN (${read('buildings', 'id, geometry, min_lng, min_lat, max_lng, max_lat', 'NULL::VARCHAR AS id, NULL::VARCHAR AS geometry, NULL::DOUBLE AS min_lng, NULL::DOUBLE AS min_lat, NULL::DOUBLE AS max_lng, NULL::DOUBLE AS max_lat')}) b
        ON c.longitude BETWEEN b.min_lng AND b.max_lng AND c.latitude BETWEEN b.min_lat AND b.max_lat
      WHERE c.longitude IS NOT NULL AND c.registration_number NOT IN (SELECT registration_number FROM att)`)).getRowObjectsJS() as { n: string; lng: number; lat: number; id: string; geometry: string }[];
    const inside = new Map<string, Set<string>>();
    for (const k of candidates) {
      if (!booleanPointInPolygon([k.lng, k.lat], JSON.parse(k.geometry) as Polygon | MultiPolygon)) continue;
      inside.set(k.n, (inside.get(k.n) ?? new Set()).add(k.id));
    }
    const single = [...inside].filter(([, ids]) => ids.size === 1).map(([n, ids]) => `(${lit(n)}, ${lit([...ids][0]!)}, 'position_in_footprint', 4)`);
    if (single.length > 0) await c.run(`INSERT INTO att VALUES ${single.join(', ')}`);
    const levels = Object.entries(COPRO_ATTACHMENTS).map(([r, a]) => `(${lit(r)}, ${lit(a.level)})`).join(', ');
    await c.run(`CREATE TABLE out AS SELECT c.*, a.building_id, lv.level AS attachment, a.reason AS attachment_reason
      FROM c LEFT JOIN (SELECT registration_number, building_id, arg_min(reason, rank) AS reason FROM att GROUP BY ALL) a USING (registration_number)
      LEFT JOIN (VALUES ${levels}) lv(reason, level) ON lv.reason = a.reason`);

    const prepared: { department: string; rejects: Rejects; tables: { table: string; prepared: PreparedTable }[] }[] = [];
    try {
      for (const department of departments) {
        const rejects = new Rejects(ctx.dataDir, 'fr', COPRO_TABLE, `rnic-${department}`, ctx.maxRejectShare);
        await rejects.init();
        for (const r of refused.filter((x) => (x.department ?? departments[0]) === department)) rejects.add(r.line, r.why, r.raw);
        rejects.check(copros.filter((x) => x.department_code === department).length + rejects.count);
        await rejects.close();
        const table = await stage.prepareParquet(`SELECT ${Object.keys(COPRO_COLUMNS).join(', ')} FROM out WHERE department_code = ${lit(department)}`,
          { dataDir: ctx.dataDir, country: 'fr', table: COPRO_TABLE, partition: `rnic-${department}`, orderBy: 'building_id' });
        prepared.push({ department, rejects, tables: [{ table: COPRO_TABLE, prepared: table }] });
      }
    } catch (e) {
      for (const p of prepared) for (const t of p.tables) await t.prepared.discard();
      throw e;
    }
    const out: PartitionSummary[] = [];
    for (const p of prepared) out.push(...await publish(ctx, 'fr', 'fr.copro', rnicSource, input, `rnic-${p.department}`, p.tables, p.rejects));
    const counts = (await c.runAndReadAll(`SELECT coalesce(attachment_reason, 'none') AS r, count(DISTINCT registration_number)::INTEGER AS n FROM out GROUP BY ALL ORDER BY r`)).getRowObjectsJS();
    ctx.log(`fr.copro: ${copros.length} co-ownerships, ${refused.length} refused; attached: ${counts.map((x) => `${x.r} ${x.n}`).join(', ')}`);
    return out;
  } finally {
    await stage.close();
  }
}

export type { CoproAttachment };
