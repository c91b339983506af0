import { join } from 'node:path';
import { quotedString } from '@duckdb/node-api';
import { propertiesSource } from '../../datasets/fr/properties/source.ts';
import { PROPERTY_COLUMNS, PROPERTY_EVENT_COLUMNS } from '../../schemas/tables/properties.ts';
import { SALE_UNIT_TYPE } from '../../schemas/tables/sales.ts';
import { hasPartitions, publishedPartitions, tableGlob } from '../../schemas/tables/layout.ts';
import { assignIds } from '../core/id-registry.ts';
import { publish, type JobContext, type PartitionSummary } from '../core/job.ts';
import { Rejects } from '../core/rejects.ts';
import { Stage } from '../core/stage.ts';

export const PROPERTIES_TABLE = 'properties';
export const PROPERTY_EVENTS_TABLE = 'property_events';
/** A diagnosis whose surface is within this share of a sale's, in the same building, is probably of that property. */
export const SURFACE_TOLERANCE = 0.03;
/** A partition named for its department (`2021-33`, `dpe_v2_new-69`). */
const DEPARTMENT_SUFFIX = /-(\d{2}|2[AB]|97\d)$/;

const glob = (dataDir: string, table: string) => tableGlob(dataDir, 'fr', table);
const has = (dataDir: string, table: string) => hasPartitions(dataDir, 'fr', table);


/**
 * The properties of France and the events of their lives, from the tables already ingested:
 * a flat is the lots of a one-dwelling deed on its parcel, a house the parcels of a one-house deed
 * (sale events attached `sure`: lot_in_deed, parcel_in_deed); a dwelling-level diagnosis is
 * attached `probable` (surface_matches_lot) to the property of its building whose sold surface is
 * within 3 % of its own, else it names its own property by its tax invariant, RPLS number or its
 * number (`sure`: dwelling_in_diagnosis). Ids from the registry (prp for properties, evt for sales);
 * one partition per department. Reads fr/sales, fr/diagnoses, fr/building_links. A deed of several
 * dwellings gives a property to each dwelling the file tells apart (fr/sales units: its parcel and
 * own lots); dwellings sharing their lots, or unlotted on one parcel, are left out. With
 * `departments`, only their partitions are built, from their rows alone (run department by
 * department as the departments are ingested; a building linked from another department's
 * partition is not seen).
 */
export async function buildProperties(ctx: JobContext, o: { departments?: string[] } = {}): Promise<PartitionSummary[]> {
  if (!has(ctx.dataDir, 'sales') && !has(ctx.dataDir, 'diagnoses')) throw new Error('neither fr/sales nor fr/diagnoses is ingested: run fr.dvf or fr.dpe first');
  const stage = await Stage.open(ctx.dataDir, 'fr.properties');
  try {
    const c = stage.connection;
    // With departments, only their sales, diagnoses and buildings (fr.buildings' partitions rnb-<dep>):
    // a property, its sales and diagnoses and its building are of one department.
    const only = o.departments ? ` WHERE department_code IN (${o.departments.map((d) => quotedString(d)).join(', ')})` : '';
    // The files of those departments alone (sales `<year>-<dep>`, diagnoses `<scheme>-<dep>`): a
    // department's run does not open the nation's; a file of another layout is read and filtered.
    const ofDepartments = (partition: string) => !o.departments || !DEPARTMENT_SUFFIX.test(partition) || o.departments.some((d) => partition.endsWith(`-${d}`));
    const read = new Map<string, string[]>();
    const files = (t: string) => read.get(t) ?? read.set(t, [...publishedPartitions(ctx.dataDir, 'fr', t)].filter(([p]) => ofDepartments(p)).map(([, f]) => quotedString(f))).get(t)!;
    const src = (t: string, cols: string) => (files(t).length > 0 ? `SELECT * FROM (SELECT ${cols} FROM read_parquet([${files(t).join(', ')}], union_by_name = true))${only}` : `SELECT ${cols} FROM (SELECT 1) WHERE false`);
    const linkFiles = [...publishedPartitions(ctx.dataDir, 'fr', 'building_links')].filter(([p]) => !o.departments || o.departments.some((d) => p === `rnb-${d}`)).map(([, f]) => quotedString(f));
    await c.run(`CREATE TABLE links AS ${linkFiles.length > 0 ? `SELECT building_id, kind, key FROM read_parquet([${linkFiles.join(', ')}])` : `SELECT NULL::VARCHAR AS building_id, NULL::VARCHAR AS kind, NULL::VARCHAR AS key WHERE false`}`);
    // One building per parcel or address, or none (never the wrong one).
    await c.run(`CREATE TABLE one_building AS SELECT kind, key, any_value(building_id) AS building_id FROM links WHERE kind IN ('parcel', 'address') GROUP BY kind, key HAVING count(DISTINCT building_id) = 1`);
    // Sales written before fr.dvf kept the Carrez surfaces and the deed's units read them as null.
    const saleColumns = files('sales').length > 0 ? new Set((await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet([${files('sales').join(', ')}], union_by_name = true)`)).getRowObjectsJS().map((r) => r.column_name as string)) : new Set<string>();
    const carrez = saleColumns.has('carrez_area') ? 'carrez_area' : 'NULL::DOUBLE AS carrez_area';
    const units = saleColumns.has('units') ? 'units' : `NULL::${SALE_UNIT_TYPE} AS units`;
    // A one-dwelling deed is one property (a flat by all the lots of the deed, a house by its parcels);
    // a deed of several dwellings gives one property per dwelling the file tells apart (its parcel
    // and own lots: fr.dvf's units), the event naming the unit (part); the others are left out.
    await c.run(`CREATE TABLE s AS SELECT *, CASE WHEN property_type = 'apartment' AND lot IS NOT NULL THEN 'dvf-lots:' || parcel || ':' || lot ELSE 'dvf-parcels:' || lot_parcels END AS pkey FROM (
      SELECT id, date, property_type, surface, rooms, department_code, parcels[1] AS parcel,
        array_to_string(list_sort(lots), '|') AS lot, array_to_string(list_sort(parcels), '|') AS lot_parcels, carrez_area AS carrez, NULL::VARCHAR AS part
      FROM (${src('sales', `id, date, property_type, surface, rooms, department_code, parcels, lots, dwellings, ${carrez}, ${units}`)})
      WHERE dwellings = 1 AND (property_type = 'house' OR (property_type = 'apartment' AND lots IS NOT NULL))
      UNION ALL
      SELECT id, date, u.kind, u.surface, u.rooms, department_code, u.parcel, array_to_string(u.lots, '|'), u.parcel, u.carrez, u.parcel || ':' || coalesce(array_to_string(u.lots, '|'), '')
      FROM (SELECT *, unnest(units) AS u FROM (${src('sales', `id, date, department_code, dwellings, ${units}`)}) WHERE dwellings > 1 AND units IS NOT NULL))`);
    await c.run(`CREATE TABLE sp AS SELECT s.*, b.building_id FROM s LEFT JOIN one_building b ON b.kind = 'parcel' AND b.key = s.parcel`);
    await c.run(`CREATE TABLE d AS SELECT x.*, b.building_id FROM (${src('diagnoses', 'number, event_id, date, dwelling_type, surface, floor, tax_invariant, rpls, ban_id, department_code, superseded, level')}) x
      LEFT JOIN one_building b ON b.kind = 'address' AND b.key = x.ban_id WHERE NOT x.superseded AND x.level = 'dwelling'`);
    // Probable attachment: the sale property of the same building and type with the nearest surface within the tolerance.
    await c.run(`CREATE TABLE dm AS SELECT d.number, arg_min(sp.pkey, abs(d.surface - sp.surface)) AS pkey FROM d JOIN sp ON sp.building_id = d.building_id
      AND sp.property_type = CASE d.dwelling_type WHEN 'house' THEN 'house' ELSE 'apartment' END
      AND sp.surface > 0 AND abs(d.surface - sp.surface) <= ${SURFACE_TOLERANCE} * sp.surface GROUP BY d.number`);
    // Diagnoses not attached to a sale property name their own (an anti-join: NOT IN over dm is a nested scan at national counts).
    await c.run(`CREATE TABLE own AS SELECT d.* FROM d ANTI JOIN dm USING (number)`);
    // Registry shard of the department: a property's keys are registered beside its department's.
    await c.run(`CREATE TABLE req AS
      SELECT pkey AS ref, pkey AS key, department_code AS shard FROM sp
      UNION ALL SELECT 'dpe:' || number, 'inv:' || tax_invariant, department_code FROM own WHERE tax_invariant IS NOT NULL
      UNION ALL SELECT 'dpe:' || number, 'rpls:' || rpls, department_code FROM own WHERE rpls IS NOT NULL
      UNION ALL SELECT 'dpe:' || number, 'dpe-dwelling:' || number, department_code FROM own WHERE tax_invariant IS NULL AND rpls IS NULL`);
    await assignIds(c, ctx, { country: 'fr', kind: 'prp', source: propertiesSource.id, job: propertiesSource.id, request: 'req', out: 'pid' });
    await c.run(`CREATE TABLE sreq AS SELECT id || coalesce(':' || part, '') AS ref, 'dvf:' || id || coalesce(':' || part, '') AS key, 'dvf-' || department_code AS shard FROM sp`);
    await assignIds(c, ctx, { country: 'fr', kind: 'evt', source: propertiesSource.id, job: propertiesSource.id, request: 'sreq', out: 'eid' });
    // Each event carries the facts of its sale or diagnosis: the properties are an aggregation of
    // the events alone (joining sp and d back by ref on `type = ...` conditions was a nested-loop
    // join: 108 s for 100,000 sales here).
    await c.run(`CREATE TABLE ev AS
      SELECT p.id AS property_id, e.id AS event_id, 'sale' AS type, sp.date, 'sure' AS level, CASE WHEN sp.property_type = 'apartment' AND sp.lot IS NOT NULL THEN 'lot_in_deed' ELSE 'parcel_in_deed' END AS reason, sp.id AS ref, sp.part, sp.department_code,
        sp.building_id AS s_building, sp.property_type AS s_type, sp.lot AS s_lot, sp.parcel AS s_parcel, sp.surface AS s_surface, sp.rooms AS s_rooms, sp.carrez AS s_carrez,
        NULL AS d_building, NULL AS d_type, NULL AS d_floor, NULL AS d_surface
      FROM sp JOIN pid p ON p.ref = sp.pkey JOIN eid e ON e.ref = sp.id || coalesce(':' || sp.part, '')
      UNION ALL SELECT p.id, d.event_id, 'energy_diagnosis', d.date, 'probable', 'surface_matches_lot', d.number, NULL, d.department_code,
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, d.building_id, d.dwelling_type, d.floor, d.surface FROM d JOIN dm USING (number) JOIN pid p ON p.ref = dm.pkey
      UNION ALL SELECT p.id, d.event_id, 'energy_diagnosis', d.date, 'sure', 'dwelling_in_diagnosis', d.number, NULL, d.department_code,
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, d.building_id, d.dwelling_type, d.floor, d.surface FROM d JOIN pid p ON p.ref = 'dpe:' || d.number`);
    await c.run(`CREATE TABLE props AS SELECT property_id AS id,
        coalesce(any_value(s_building), any_value(d_building)) AS building_id,
        coalesce(any_value(s_type), CASE any_value(d_type) WHEN 'house' THEN 'house' ELSE 'apartment' END) AS type,
        arg_max(s_lot, date) FILTER (WHERE s_type = 'apartment') AS lot, arg_max(s_parcel, date) FILTER (WHERE type = 'sale') AS parcel,
        arg_max(d_floor, date) FILTER (WHERE type = 'energy_diagnosis') AS floor,
        coalesce(arg_max(d_surface, date) FILTER (WHERE type = 'energy_diagnosis'), arg_max(s_surface, date) FILTER (WHERE type = 'sale')) AS living_area_m2,
        arg_max(s_rooms, date) FILTER (WHERE type = 'sale') AS rooms,
        arg_max(s_carrez, date) FILTER (WHERE s_carrez IS NOT NULL) AS carrez_area_m2,
        max(date) AS last_event_on, any_value(department_code) AS department_code
      FROM ev GROUP BY property_id`);
    const departments = (await c.runAndReadAll('SELECT DISTINCT department_code AS d FROM props ORDER BY d')).getRowObjectsJS().map((r) => r.d as string);
    const out: PartitionSummary[] = [];
    const prepared = [];
    for (const dep of departments) {
      const rejects = new Rejects(ctx.dataDir, 'fr', PROPERTIES_TABLE, dep, ctx.maxRejectShare);
      const where = `WHERE department_code = ${quotedString(dep)}`;
      prepared.push({ dep, rejects, tables: [
        { table: PROPERTIES_TABLE, prepared: await stage.prepareParquet(`SELECT ${Object.keys(PROPERTY_COLUMNS).join(', ')} FROM props ${where}`, { dataDir: ctx.dataDir, country: 'fr', table: PROPERTIES_TABLE, partition: dep, orderBy: 'id' }) },
        { table: PROPERTY_EVENTS_TABLE, prepared: await stage.prepareParquet(`SELECT ${Object.keys(PROPERTY_EVENT_COLUMNS).join(', ')} FROM ev ${where}`, { dataDir: ctx.dataDir, country: 'fr', table: PROPERTY_EVENTS_TABLE, partition: dep, orderBy: 'property_id' }) },
      ] });
    }
    for (const p of prepared) out.push(...await publish(ctx, 'fr', propertiesSource.id, propertiesSource, { path: glob(ctx.dataDir, 'sales'), sha256: 'derived' }, p.dep, p.tables, p.rejects));
    return out;
  } finally {
    await stage.close();
  }
}
