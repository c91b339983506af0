import { fileProgress } from '../core/progress.ts';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { quotedString } from '@duckdb/node-api';
import { dpeSource } from '../../datasets/fr/dpe/source.ts';
import { DIAGNOSIS_COLUMNS, DiagnosisRow } from '../../schemas/tables/diagnoses.ts';
import { assignIds } from '../core/id-registry.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { readCsv } from '../core/readers/csv.ts';
import { Rejects } from '../core/rejects.ts';
import { toWgs84 } from '../core/reproject.ts';
import { Stage } from '../core/stage.ts';
import { requireColumns } from '../core/columns.ts';

export const DIAGNOSES_TABLE = 'diagnoses';

/** Columns read, common to the new and existing dwellings datasets (a file lacking one is not ADEME's DPE v2). */
const C = {
  number: 'N°DPE', date: 'Date_établissement_DPE', replaces: 'N°_DPE_remplacé', buildingNumber: 'N°_DPE_immeuble_associé',
  rpls: 'N°_RPLS_logement', invariant: 'Invariant_fiscal_logement', copro: 'N°_immatriculation_copropriété',
  energyClass: 'Etiquette_DPE', climateClass: 'Etiquette_GES', energy: 'Conso_5_usages_par_m²_é_primaire', climate: 'Emission_GES_5_usages_par_m²',
  type: 'Type_bâtiment', surface: 'Surface_habitable_logement', buildingSurface: 'Surface_habitable_immeuble', floor: 'N°_étage_appartement',
  heatingEnergy: 'Type_énergie_principale_chauffage', heatingSystem: 'Type_installation_chauffage',
  banId: 'Identifiant__BAN', address: 'Adresse_(BAN)', commune: 'Code_INSEE_(BAN)', department: 'N°_département_(BAN)',
  x: 'Coordonnée_cartographique_X_(BAN)', y: 'Coordonnée_cartographique_Y_(BAN)',
} as const;
/** Columns only the existing-dwellings dataset publishes: they tell the scheme from the header. */
const EXISTING_ONLY = ['Année_construction', 'Période_construction'];
const YEAR = 'Année_construction', LEVELS = 'Nombre_niveau_immeuble', DWELLINGS = 'Nombre_appartement';
const TYPES: Record<string, DiagnosisRow['dwelling_type']> = { appartement: 'apartment', maison: 'house', immeuble: 'building' };

const num = (s: string | undefined) => { const t = (s ?? '').trim(); if (t === '') return null; const n = Number(t); return Number.isFinite(n) ? n : NaN; };
const text = (s: string | undefined) => { const t = (s ?? '').trim(); return t === '' ? null : t; };

/** One published line as a diagnosis (event_id and superseded set later), or why it is refused. */
export function diagnosisOf(r: Record<string, string>, scheme: DiagnosisRow['scheme'], project: (xy: [number, number]) => [number, number]): Omit<DiagnosisRow, 'event_id' | 'superseded'> | string {
  const number = text(r[C.number]);
  if (!number || !/^\d{4}[A-Z]\d{7}[A-Z]$/.test(number)) return `N°DPE ${JSON.stringify(r[C.number] ?? null)} is not a 13-character diagnosis number`;
  const replaces = text(r[C.replaces]);
  if (replaces !== null && !/^\d{4}[A-Z]\d{7}[A-Z]$/.test(replaces)) return `N°_DPE_remplacé ${JSON.stringify(replaces)} is not a diagnosis number`;
  const date = text(r[C.date]);
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return `Date_établissement_DPE ${JSON.stringify(r[C.date] ?? null)} is not YYYY-MM-DD`;
  const dwellingType = TYPES[(r[C.type] ?? '').trim().toLowerCase()];
  if (!dwellingType) return `Type_bâtiment ${JSON.stringify(r[C.type] ?? null)} is not appartement, maison or immeuble`;
  const klass = (k: string) => { const v = text(r[k]); return v === null ? null : /^[A-G]$/.test(v) ? (v as DiagnosisRow['energy_class']) : undefined; };
  const energyClass = klass(C.energyClass), climateClass = klass(C.climateClass);
  if (energyClass === undefined || climateClass === undefined) return `Etiquette_DPE/Etiquette_GES ${JSON.stringify([r[C.energyClass], r[C.climateClass]])} are not classes A to G`;
  const level = dwellingType === 'building' ? 'building' : 'dwelling';
  const values = { energy: num(r[C.energy]), climate: num(r[C.climate]), surface: num(level === 'building' ? r[C.buildingSurface] ?? r[C.surface] : r[C.surface]), floor: num(r[C.floor]), x: num(r[C.x]), y: num(r[C.y]) };
  const counts = { year: num(r[YEAR]), levels: num(r[LEVELS]), dwellings: num(r[DWELLINGS]) };
  const bad = Object.entries(values).find(([, v]) => Number.isNaN(v));
  if (bad) return `${bad[0]} is not a number (decimal point expected)`;
  // Optional counts: a value that is not a whole number is not served (null), the diagnosis is kept.
  const whole = (v: number | null) => (v !== null && Number.isInteger(v) && v >= 0 ? v : null);
  if (values.floor !== null && !Number.isInteger(values.floor)) return `N°_étage_appartement ${values.floor} is not a whole floor`;
  let lng: number | null = null, lat: number | null = null;
  if (values.x !== null && values.y !== null) {
    // BAN coordinates in Lambert-93 metres: outside its extent they are not Lambert-93.
    if (values.x < 0 || values.x > 1_300_000 || values.y < 6_000_000 || values.y > 7_200_000) return `BAN coordinates (${values.x}, ${values.y}) are not Lambert-93`;
    [lng, lat] = project([values.x, values.y]);
    lng = Math.round(lng * 1e7) / 1e7; lat = Math.round(lat * 1e7) / 1e7;
  }
  const department = text(r[C.department]) ?? text(r[C.commune])?.slice(0, text(r[C.commune])!.startsWith('97') ? 3 : 2) ?? null;
  if (!department || !/^(\d{2,3}|2A|2B)$/.test(department)) return `N°_département_(BAN) ${JSON.stringify(r[C.department] ?? null)} is not a department`;
  const invariant = text(r[C.invariant]);
  return {
    number, replaces, date, scheme, level, dwelling_type: dwellingType, energy_class: energyClass, energy_per_m2: values.energy, climate_class: climateClass, climate_per_m2: values.climate,
    surface: values.surface, floor: values.floor, heating_energy: text(r[C.heatingEnergy]), heating_system: text(r[C.heatingSystem]),
    building_number: text(r[C.buildingNumber]), rpls: text(r[C.rpls]), tax_invariant: invariant === 'NC' ? null : invariant, copro_number: text(r[C.copro]),
    construction_year: whole(counts.year), building_levels: whole(counts.levels), building_dwellings: whole(counts.dwellings),
    ban_id: text(r[C.banId]), address: text(r[C.address]), commune_code: text(r[C.commune]), department_code: department.padStart(2, '0'),
    longitude: lng, latitude: lat, source: dpeSource.id,
  };
}

/**
 * ADEME's DPE v2 export (new or existing dwellings, told apart by the header) into fr/diagnoses,
 * one partition per scheme and department named from the rows (`dpe_v2_new-69`). Each diagnosis
 * gets an event id of ours from the registry, keyed by its number and the number it replaces (a
 * correction is the same event); a diagnosis replaced by a later line of the input is kept as
 * superseded. Bad rows go to the rejects with their line; a file lacking a column fails naming it.
 */
export async function ingestDpe(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const project = toWgs84('EPSG:2154');
  const work = join(ctx.dataDir, '.tmp', `fr.dpe-rows-${process.pid}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const rowsFile = join(work, 'rows.ndjson');
  const out = createWriteStream(rowsFile, 'utf8');
  const rejectsOf = new Map<string, Rejects>();
  const totals = new Map<string, number>();
  const orphanRejects: { line: number; why: string; raw: unknown }[] = [];
  let scheme: DiagnosisRow['scheme'] | null = null;
  let total = 0;
  const stage = await Stage.open(ctx.dataDir, 'fr.dpe');
  try {
    for await (const row of readCsv(input.path, { separator: ',', progress: fileProgress(ctx, 'fr.dpe', input.path) })) {
      if (scheme === null) {
        requireColumns(Object.keys(row.record), Object.values(C), "ADEME's DPE v2 export");
        scheme = EXISTING_ONLY.some((c) => c in row.record) ? 'dpe_v2_existing' : 'dpe_v2_new';
      }
      total++;
      const d = row.error ? row.error : diagnosisOf(row.record, scheme, project);
      if (typeof d === 'string') {
        const dep = text(row.record[C.department]);
        const partition = dep && /^(\d{2,3}|2A|2B)$/.test(dep) ? `${scheme}-${dep.padStart(2, '0')}` : null;
        if (partition) { rejectsFor(partition).add(row.line, d, row.record); totals.set(partition, (totals.get(partition) ?? 0) + 1); } else orphanRejects.push({ line: row.line, why: d, raw: row.record });
        continue;
      }
      const partition = `${scheme}-${d.department_code}`;
      rejectsFor(partition);
      totals.set(partition, (totals.get(partition) ?? 0) + 1);
      out.write(`${JSON.stringify({ ...d, partition })}\n`);
    }
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    if (total === 0) throw new Error(`no diagnosis in ${input.path}`);
    if (totals.size === 0) throw new Error(`no line of ${input.path} names a department: ${orphanRejects[0]?.why}`);
    const firstPartition = [...totals.keys()][0]!;
    for (const o of orphanRejects) { rejectsFor(firstPartition).add(o.line, o.why, o.raw); totals.set(firstPartition, totals.get(firstPartition)! + 1); }

    const c = stage.connection;
    const columns = Object.entries(DIAGNOSIS_COLUMNS).filter(([k]) => k !== 'event_id' && k !== 'superseded').map(([k, t]) => `${k}: '${t}'`).join(', ');
    await c.run(`CREATE TABLE d AS SELECT * FROM read_json(${quotedString(rowsFile)}, format = 'newline_delimited', columns = {${columns}, partition: 'VARCHAR'})`);
    // A diagnosis number published twice in one input is one diagnosis: the later line kept.
    await c.run(`CREATE TABLE d1 AS SELECT * FROM d QUALIFY row_number() OVER (PARTITION BY number ORDER BY date DESC) = 1`);
    // Registry shard of the department (dpe-<dep>): a department's run reads its own keys only.
    await c.run(`CREATE TABLE req AS SELECT number AS ref, 'dpe:' || number AS key, 'dpe-' || department_code AS shard FROM d1
      UNION ALL SELECT number, 'dpe:' || replaces, 'dpe-' || department_code FROM d1 WHERE replaces IS NOT NULL`);
    await assignIds(c, ctx, { country: 'fr', kind: 'evt', source: dpeSource.id, job: dpeSource.id, request: 'req', out: 'ids' });
    const prepared = [];
    for (const partition of totals.keys()) {
      const rejects = rejectsFor(partition);
      rejects.check(totals.get(partition)!);
      await rejects.close();
      const select = `SELECT ${Object.keys(DIAGNOSIS_COLUMNS).map((k) => k === 'event_id' ? 'ids.id AS event_id' : k === 'superseded' ? '(d1.number IN (SELECT replaces FROM d1 WHERE replaces IS NOT NULL)) AS superseded' : `d1.${k}`).join(', ')}
        FROM d1 JOIN ids ON ids.ref = d1.number WHERE d1.partition = ${quotedString(partition)}`;
      prepared.push({ partition, rejects, tables: [{ table: DIAGNOSES_TABLE, prepared: await stage.prepareParquet(select, { dataDir: ctx.dataDir, country: 'fr', table: DIAGNOSES_TABLE, partition, orderBy: 'number' }) }] });
    }
    const summaries: PartitionSummary[] = [];
    for (const p of prepared) summaries.push(...await publish(ctx, 'fr', dpeSource.id, dpeSource, input, p.partition, p.tables, p.rejects));
    return summaries;
  } finally {
    out.destroy();
    for (const r of rejectsOf.values()) await r.close();
    await stage.close();
    await rm(work, { recursive: true, force: true });
  }

  function rejectsFor(partition: string): Rejects {
    let r = rejectsOf.get(partition);
    if (!r) { r = new Rejects(ctx.dataDir, 'fr', DIAGNOSES_TABLE, partition, ctx.maxRejectShare); rejectsOf.set(partition, r); }
    return r;
  }
}
