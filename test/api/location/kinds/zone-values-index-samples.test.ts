import { centroid } from '@turf/turf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { valuesOfZones, valuesOfZonesSql } from '../../../../api/location/kinds/zone-values.ts';
import { ZONE_VALUES_INDEX_BUDGET, zoneValuesIndexOf, zoneValuesIndexOptions, zoneValuesIndexReady } from '../../../../api/location/kinds/zone-values-index.ts';
import { locationReady } from '../../../../api/location/ready.ts';
import { indexBuildTimes } from '../../../../api/location/search/warehouse-index.ts';
import { COUNTRIES } from '../../../../datasets/countries.ts';
import type { Country } from '../../../../schemas/common.ts';
import { duckRows } from '../../../helpers/duckdb.ts';
import { buildTestApp, type TestApp } from '../../../helpers/app.ts';
import { samplesDataDir } from '../../../helpers/samples.ts';

// The committed samples served twice: by an app whose zone-values index is kept off (DuckDB
// answers) and by one whose index is built. Every zone-values reader (the rows of a zone, the
// zone routes with market and residents, the reports' residents and market) answers the same.
let sql: TestApp, indexed: TestApp;
let dataDir: string;

beforeAll(async () => {
  ({ dataDir } = await samplesDataDir('lds-zone-values-paths-'));
  zoneValuesIndexOptions.budget = 0;
  try {
    sql = await buildTestApp(dataDir);
    for (const c of COUNTRIES) expect(await zoneValuesIndexReady(sql.warehouse, c, 'zone_values')).toBeNull();
  } finally { zoneValuesIndexOptions.budget = ZONE_VALUES_INDEX_BUDGET; }
  indexed = await buildTestApp(dataDir, { sql: sql.sql });
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await indexed?.close(); await sql?.close(); });

/** Zones holding values, as DuckDB reads the table's files directly, with the outline of those the zones table has. */
async function zonesOf(country: Country) {
  return duckRows<{ level: string; code: string; geometry: string | null }>(
    `SELECT v.level, v.code, any_value(z.geometry) AS geometry FROM '${dataDir}/tables/zone_values/country=${country}/*.parquet' v
     LEFT JOIN '${dataDir}/tables/zones/country=${country}/*.parquet' z ON z.level = v.level AND z.code = v.code GROUP BY ALL ORDER BY ALL`);
}

/** The status and body of a GET on both apps, without the request id. */
async function both(url: string): Promise<{ status: number; bodies: [unknown, unknown] }> {
  const answers = await Promise.all([sql, indexed].map(async (t) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
    const body = res.json() as { meta?: Record<string, unknown> };
    delete body.meta?.request_id;
    return { status: res.statusCode, body };
  }));
  expect(answers[1]!.status, url).toBe(answers[0]!.status);
  return { status: answers[0]!.status, bodies: [answers[0]!.body, answers[1]!.body] };
}

describe('zone values on the samples, through the index and through DuckDB', () => {
  it('builds the index of each country holding values (index_build_seconds, readiness) and none on the app kept to DuckDB', async () => {
    for (const c of COUNTRIES) {
      const [{ n }] = await duckRows<{ n: bigint }>(`SELECT count(*) AS n FROM '${dataDir}/tables/zone_values/country=${c}/*.parquet'`) as [{ n: bigint }];
      expect(n).toBeGreaterThan(10n);
      const index = await zoneValuesIndexReady(indexed.warehouse, c, 'zone_values');
      expect(index?.size).toBe(Number(n));
      expect(zoneValuesIndexOf(sql.warehouse, c, 'zone_values')).toBeNull();
      expect(indexBuildTimes(indexed.warehouse).some((b) => b.index === 'zone_values' && b.country === c)).toBe(true);
    }
    expect((await locationReady(indexed.warehouse)).waiting.filter((w) => w.includes('zone_values'))).toEqual([]);
  });

  it('gives every zone its rows, and zones asked together theirs, the same by both paths and as many as the files hold', async () => {
    for (const c of COUNTRIES) {
      const zones = await zonesOf(c);
      const index = (await zoneValuesIndexReady(indexed.warehouse, c, 'zone_values'))!;
      let total = 0;
      for (const z of zones) {
        const rows = await valuesOfZonesSql(sql.warehouse, c, 'zone_values', [z]);
        expect(index.valuesOfZones([z]), `${c} ${z.level} ${z.code}`).toEqual(rows);
        expect(await valuesOfZones(indexed.warehouse, c, 'zone_values', [z])).toEqual(rows);
        expect(await valuesOfZones(sql.warehouse, c, 'zone_values', [z])).toEqual(rows);
        total += rows.length;
      }
      const [{ n }] = await duckRows<{ n: bigint }>(`SELECT count(*) AS n FROM '${dataDir}/tables/zone_values/country=${c}/*.parquet'`) as [{ n: bigint }];
      expect(total).toBe(Number(n));
      // Three zones at a time (a report's chain of zones), each indicator alone and all of them.
      const indicators = (await duckRows<{ i: string }>(`SELECT DISTINCT indicator AS i FROM '${dataDir}/tables/zone_values/country=${c}/*.parquet' ORDER BY 1`)).map((r) => r.i);
      for (let k = 0; k + 2 < zones.length; k++) {
        const three = [zones[k]!, zones[(k * 7 + 3) % zones.length]!, zones[(k * 13 + 5) % zones.length]!];
        for (const wanted of [undefined, [indicators[k % indicators.length]!], indicators.slice(0, 3)]) {
          expect(index.valuesOfZones(three, wanted)).toEqual(await valuesOfZonesSql(sql.warehouse, c, 'zone_values', three, wanted));
        }
      }
    }
  });

  it('answers every zone route (include=market,residents) and every report at a zone (residents, market) the same by both paths', async () => {
    let reports = 0, routes = 0;
    for (const c of COUNTRIES) {
      for (const z of await zonesOf(c)) {
        // A zone the zones table does not name (a rental-survey zone matched by name) answers 404 on both.
        const route = await both(`/api/v1/${c}/zones/${z.level}/${encodeURIComponent(z.code)}?include=market,residents`);
        expect(route.bodies[1], `${c} zone ${z.level} ${z.code}`).toEqual(route.bodies[0]);
        if (route.status === 200) routes++;
        if (!z.geometry) continue;
        const [lng, lat] = centroid(JSON.parse(z.geometry)).geometry.coordinates as [number, number];
        const report = await both(`/api/v1/${c}/report?lat=${lat}&lng=${lng}&include=residents,market&locale=en`);
        expect(report.status).toBe(200);
        expect(report.bodies[1], `${c} report at ${z.level} ${z.code}`).toEqual(report.bodies[0]);
        reports++;
        if (c === 'be') {
          const residents = await both(`/api/v1/be/residents?lat=${lat}&lng=${lng}`);
          expect(residents.status).toBe(200);
          expect(residents.bodies[1]).toEqual(residents.bodies[0]);
        }
      }
    }
    expect(routes).toBeGreaterThan(50);
    expect(reports).toBeGreaterThan(40);
  });
});
