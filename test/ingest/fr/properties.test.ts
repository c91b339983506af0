import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { JOBS, runSamples } from '../../../ingest/jobs.ts';
import { buildProperties } from '../../../ingest/fr/properties.ts';
import { idPattern } from '../../../schemas/tables/id-registry.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';

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

  it('re-running changes no id', async () => {
    const q = `SELECT property_id, event_id, ref FROM read_parquet('${tableGlob(dataDir, 'fr', 'property_events')}') ORDER BY ref`;
    const before = await duckRows(q);
    await buildProperties(silentContext(dataDir));
    expect(await duckRows(q)).toEqual(before);
  });
});
