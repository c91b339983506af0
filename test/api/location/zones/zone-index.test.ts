import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Warehouse } from '../../../../api/core/warehouse.ts';
import { openLocationWarehouse } from '../../../../api/location/warehouse.ts';
import { buildZoneIndex, zoneIndexReady, type CoverRow, type ZoneIndex } from '../../../../api/location/zones/zone-index.ts';
import { createZoneLookup } from '../../../../api/location/zones/lookup.ts';
import { cellAndAncestors } from '../../../../schemas/tables/cells.ts';
import { ZONE_COVER_RES } from '../../../../schemas/tables/zones.ts';
import { rng } from '../../../../bench/generate.ts';
import { BORDER_LAT, BORDER_LNG, buildFixtureData } from '../../../helpers/fixture-data.ts';

let warehouse: Warehouse;
let index: ZoneIndex;

/** The cover rows DuckDB gives for the cells, in the order the lookup reads them. */
async function sqlRows(cells: bigint[]): Promise<CoverRow[]> {
  return warehouse.query<CoverRow>(
    `SELECT DISTINCT c.level, c.code, c.interior, n.name, n.source FROM fr_zone_cells_mem c
     LEFT JOIN fr_zone_names n ON n.level = c.level AND n.code = c.code WHERE c.cell IN (${cells.map((_, i) => `$${i + 1}`).join(', ')})
     ORDER BY c.cell, c.level, c.code`, cells);
}

/** Points over the fixture's Paris and Gironde zones, and pairs astride their borders. */
function points(): [number, number][] {
  const rand = rng(3);
  const out: [number, number][] = [];
  for (let i = 0; i < 700; i++) out.push([48.80 + rand() * 0.12, 2.24 + rand() * 0.2]);
  for (let i = 0; i < 250; i++) out.push([44.98 + rand() * 0.12, -0.16 + rand() * 0.08]);
  for (let i = 0; i < 100; i++) {
    const lat = 48.851 + rand() * 0.015, lng = -0.149 + rand() * 0.058;
    out.push([lat, BORDER_LNG - 1e-5], [lat, BORDER_LNG + 1e-5], [BORDER_LAT - 1e-5, lng], [BORDER_LAT + 1e-5, lng]);
  }
  return out;
}

describe('zone index', () => {
  beforeAll(async () => {
    warehouse = await openLocationWarehouse(await buildFixtureData());
    index = (await buildZoneIndex(warehouse, 'fr'))!;
  });
  afterAll(() => warehouse.close());

  it('holds the cover DuckDB holds, row for row, for the cells of points inside zones, outside them and astride borders', async () => {
    expect(index.size).toBeGreaterThan(100);
    let found = 0;
    for (const [lat, lng] of points()) {
      const cells = cellAndAncestors(lat, lng, ZONE_COVER_RES);
      const rows = index.rowsOf(cells);
      expect(rows, `${lat},${lng}`).toEqual(await sqlRows(cells));
      found += rows.length;
    }
    expect(found).toBeGreaterThan(500);
  });

  it('is what the zone lookup reads once built, with the same zones as the exact test on both sides of a border', async () => {
    await zoneIndexReady(warehouse, 'fr');
    const zones = createZoneLookup(warehouse);
    const at = async (lat: number, lng: number) => Object.fromEntries((await zones.zonesAt('fr', lng, lat)).map((z) => [z.level, z.code]));
    expect(await at(48.8600, BORDER_LNG - 1e-5)).toMatchObject({ sublocality_level1: '75103', sublocality_level2: '751030101', locality: '75056' });
    expect(await at(48.8600, BORDER_LNG + 1e-5)).toMatchObject({ sublocality_level1: '75111', sublocality_level2: '751110201', locality: '75056' });
    expect(await at(BORDER_LAT - 1e-5, -0.12)).toMatchObject({ locality: '33001' });
    expect(await at(BORDER_LAT + 1e-5, -0.12)).toMatchObject({ locality: '33138' });
    expect(await at(10, 10)).toEqual({});
  });

  it('gives no index for a country without zones', async () => {
    expect(await buildZoneIndex(warehouse, 'be')).toBeNull();
  });
});
