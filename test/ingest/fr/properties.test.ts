import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { JOBS, runSamples } from '../../../ingest/jobs.ts';
import { buildProperties } from '../../../ingest/fr/properties.ts';
import { idPattern } from '../../../schemas/tables/id-registry.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { publishedPartitions, tableGlob } from '../../../schemas/tables/layout.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'lds-properties-')), 'data');
  // Only what fr.properties reads: addresses and zones (for DVF), sales, diagnoses, buildings.
  await runSamples(silentContext(dataDir), JOBS.filter((j) => ['fr.ban', 'fr.zones', 'fr.dvf', 'fr.cadastre', 'fr.dpe', 'fr.buildings', 'fr.properties'].includes(j.id)));
}, 300_000);

describe('fr.properties on the samples', () => {
  it('makes a property of each one-dwelling sale, attaches its sale sure with the coded reason, diagnoses sure or probable', async () => {
    const props = await duckRows<{ id: string; type: string; lot: string | null; building_id: string | null }>(`SELECT id, type, lot, building_id FROM read_parquet('${tableGlob(dataDir, 'fr', 'properties')}')`);
    const events = await duckRows<{ property_id: string; event_id: string; type: string; level: string; reason: string; ref: string }>(`SELECT property_id, event_id, type, level, reason, ref FROM read_parquet('${tableGlob(dataDir, 'fr', 'property_events')}')`);
    expect(props.length).toBeGreaterThan(50);
    for (const p of props) expect(p.id).toMatch(idPattern('prp'));
    for (const e of events) expect(e.event_id).toMatch(idPattern('evt'));
    const byDeed = new Set(events.filter((e) => e.reason === 'lot_in_deed').map((e) => e.property_id));
    expect(props.filter((p) => byDeed.has(p.id)).every((p) => p.type === 'apartment' && p.lot !== null)).toBe(true);
    const reasons = [...new Set(events.map((e) => `${e.type}:${e.level}:${e.reason}`))].sort();
    expect(reasons).toEqual(['energy_diagnosis:probable:surface_matches_lot', 'energy_diagnosis:sure:dwelling_in_diagnosis', 'sale:sure:lot_in_deed', 'sale:sure:parcel_in_deed']);
    // A house sold twice is one property with two sale events.
    const sales = await duckRows<{ parcels: string; n: number }>(`SELECT parcels, count(*)::INTEGER AS n FROM read_parquet('${tableGlob(dataDir, 'fr', 'sales')}') WHERE property_type = 'house' AND dwellings = 1 GROUP BY parcels HAVING n > 1`);
    expect(sales.length).toBeGreaterThan(0);
    const twice = events.filter((e) => e.type === 'sale').reduce((m, e) => m.set(e.property_id, (m.get(e.property_id) ?? 0) + 1), new Map<string, number>());
    expect([...twice.values()].some((n) => n > 1)).toBe(true);
    // The two diagnoses naming one tax invariant are one property.
    const inv = await duckRows<{ number: string }>(`SELECT number FROM read_parquet('${tableGlob(dataDir, 'fr', 'diagnoses')}') WHERE tax_invariant = '1110123456'`);
    const owners = new Set(events.filter((e) => inv.some((i) => i.number === e.ref)).map((e) => e.property_id));
    expect(owners.size).toBe(1);
  });

  it('splits a deed of several dwellings into the properties its lots tell apart, each with its Carrez surface', async () => {
    // 2022-402072: three flats (lots 3, 5, 7) and a shop (lot 1) sold in one deed, each on its own line.
    const units = await duckRows<{ property_id: string; part: string; event_id: string; lot: string; carrez: number; area: number }>(`SELECT e.property_id, e.part, e.event_id, p.lot, p.carrez_area_m2 AS carrez, p.living_area_m2 AS area
      FROM read_parquet('${tableGlob(dataDir, 'fr', 'property_events')}') e JOIN read_parquet('${tableGlob(dataDir, 'fr', 'properties')}') p ON p.id = e.property_id
      WHERE e.ref = '2022-402072' ORDER BY e.part`);
    expect(units.map((u) => [u.part, u.lot, u.carrez])).toEqual([['75111000JM0180:3', '3', 46.56], ['75111000JM0180:5', '5', 59.17], ['75111000JM0180:7', '7', 68.87]]);
    // Their living area: the unit's line (48, 61, 71 m²), or a diagnosis within 3 % of it.
    units.forEach((u, i) => expect(Math.abs(u.area / [48, 61, 71][i]! - 1)).toBeLessThanOrEqual(0.03));
    expect(new Set(units.map((u) => u.property_id)).size).toBe(3);
    expect(new Set(units.map((u) => u.event_id)).size).toBe(3);
    // A one-dwelling flat keeps the Carrez surface of the deed's dwelling lots, as DuckDB reads them in fr/sales.
    const flats = await duckRows<{ ok: boolean; n: bigint }>(`SELECT bool_and(p.carrez_area_m2 IS NOT DISTINCT FROM (SELECT s.carrez_area FROM read_parquet('${tableGlob(dataDir, 'fr', 'sales')}') s WHERE s.id = e.ref)) AS ok, count(*) AS n
      FROM read_parquet('${tableGlob(dataDir, 'fr', 'property_events')}') e JOIN read_parquet('${tableGlob(dataDir, 'fr', 'properties')}') p ON p.id = e.property_id
      WHERE e.type = 'sale' AND e.part IS NULL AND p.type = 'apartment' AND e.date = p.last_event_on`);
    expect(Number(flats[0]!.n)).toBeGreaterThan(20);
    expect(flats[0]!.ok).toBe(true);
  });

  it('re-running changes no id', async () => {
    const q = `SELECT property_id, event_id, ref, part FROM read_parquet('${tableGlob(dataDir, 'fr', 'property_events')}') ORDER BY ref, part, property_id`;
    const before = await duckRows(q);
    await buildProperties(silentContext(dataDir));
    expect(await duckRows(q)).toEqual(before);
  });

  it('builds the same properties, events and ids department by department as in one national run', async () => {
    // A copy of the data without the properties and the keys fr.properties registered: a fresh registry's ids are the hash of the smallest key.
    const copy = join(await mkdtemp(join(tmpdir(), 'lds-properties-deps-')), 'data');
    await cp(dataDir, copy, { recursive: true });
    for (const t of ['properties', 'property_events']) await rm(join(copy, 'tables', t), { recursive: true, force: true });
    for (const [p, f] of publishedPartitions(copy, 'fr', 'id_registry')) if (p.startsWith('prp') || p.startsWith('evt-dvf-')) await rm(f);
    await rm(join(copy, 'tables', 'id_merges'), { recursive: true, force: true });
    const departments = (await duckRows<{ d: string }>(`SELECT DISTINCT department_code AS d FROM read_parquet('${tableGlob(dataDir, 'fr', 'properties')}') ORDER BY d`)).map((r) => r.d);
    expect(departments.length).toBeGreaterThan(1);
    const built = [];
    for (const d of departments) built.push(...await buildProperties(silentContext(copy), { departments: [d] }));
    expect(built.map((p) => p.partition).sort()).toEqual(expect.arrayContaining(departments));
    for (const t of ['properties', 'property_events']) {
      const q = (dir: string) => `SELECT * FROM read_parquet('${tableGlob(dir, 'fr', t)}')`;
      const [diff] = await duckRows<{ a: bigint; b: bigint; n: bigint }>(`SELECT (SELECT count(*) FROM (${q(dataDir)} EXCEPT ALL ${q(copy)})) AS a, (SELECT count(*) FROM (${q(copy)} EXCEPT ALL ${q(dataDir)})) AS b, (SELECT count(*) FROM (${q(copy)})) AS n`);
      expect({ table: t, ...diff }).toEqual({ table: t, a: 0n, b: 0n, n: diff!.n });
      expect(diff!.n).toBeGreaterThan(0n);
    }
    // Each department's run registered its keys in its own shards only.
    const shards = [...publishedPartitions(copy, 'fr', 'id_registry').keys()].filter((p) => p.startsWith('prp') || p.startsWith('evt-dvf-')).sort();
    expect(shards).toEqual(departments.flatMap((d) => [`evt-dvf-${d}`, `prp-${d}`]).sort());

    // A department's run opens its own sales and diagnoses files only: the others' may even be unreadable.
    const [mine, ...others] = departments;
    for (const t of ['sales', 'diagnoses']) {
      for (const [p, f] of publishedPartitions(copy, 'fr', t)) if (others.some((d) => p.endsWith(`-${d}`))) await writeFile(f, 'not a parquet file');
    }
    const again = await buildProperties(silentContext(copy), { departments: [mine!] });
    expect(again.map((p) => p.partition)).toContain(mine);
  });
});
