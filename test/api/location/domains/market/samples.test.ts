import { join } from 'node:path';
import { duckRows } from '../../../../helpers/duckdb.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrMarketResponse } from '../../../../../api/location/domains/market/routes.ts';
import { ReportResponse } from '../../../../../api/location/report.ts';
import { REPO_ROOT } from '../../../../../ingest/jobs.ts';
import { FrMarket } from '../../../../../schemas/market.ts';
import { buildTestApp, type TestApp } from '../../../../helpers/app.ts';
import { samplesDataDir } from '../../../../helpers/samples.ts';

// The committed samples as `npm start` ingests them, then the market answered on them.
let t: TestApp;
let dataDir: string;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });

beforeAll(async () => {
  ({ dataDir } = await samplesDataDir('lds-market-samples-'));
  t = await buildTestApp(dataDir);
}, 300_000); // the samples, ingested once per run: minutes on a loaded machine
afterAll(async () => { await t.close(); });

const table = duckRows;

describe('market on the samples', () => {
  it('serves a yearly price trend with 1y, 5y and since_start changes of the zone it names', async () => {
    const res = await get('/api/v1/fr/report?lat=45.0136&lng=-0.1291&include=market&property_type=house');
    expect(res.statusCode, res.body).toBe(200);
    const body = ReportResponse.parse(res.json());
    const market = FrMarket.parse(body.data.market);
    // updated_on: the publication date fr.dvf was given for the sample (its first commit date), never the import date; no warning then.
    expect(market.sales_nearby!.median_price_per_m2!.updated_on).toBe('2026-11-22');
    expect(body.meta.warnings.filter((w) => w.code === 'publication_date_unknown')).toEqual([]);
    const trend = market.price_trend!;
    expect(trend.unit).toBe('EUR/m2');
    expect(trend.points.map((p) => p.period.start)).toEqual(['2020-01-01', '2021-01-01', '2022-01-01', '2023-01-01', '2024-01-01', '2025-01-01']);
    const [row] = await table<{ c1: number; c5: number; cs: number; median: number }>(`SELECT change_1y AS c1, change_5y AS c5, change_since_start AS cs, median
      FROM '${dataDir}/tables/market_indicators/country=fr/*.parquet' WHERE level = '${trend.zone!.level}' AND code = '${trend.zone!.code}' AND property_type = 'house' AND period = 'year' AND period_start = DATE '2025-01-01'`);
    expect(trend.changes).toEqual({ '1y': Math.round(row!.c1 * 10) / 10, '5y': Math.round(row!.c5 * 10) / 10, since_start: Math.round(row!.cs * 10) / 10 });
    expect(trend.points.at(-1)!.value).toBe(Math.round(row!.median));
  });

  it('marks the sales of the address parcel, and the report and the market route agree', async () => {
    // A sale of the sample on a parcel that the BAN sample also gives to an address.
    const [sale] = await table<{ parcels: string[]; latitude: number; longitude: number }>(`SELECT s.parcels, a.latitude, a.longitude FROM '${dataDir}/tables/sales/country=fr/*.parquet' s
      JOIN '${dataDir}/tables/addresses/country=fr/*.parquet' a ON a.parcels = s.parcels WHERE s.source = 'fr.dvf' AND s.latitude IS NOT NULL ORDER BY s.id LIMIT 1`);
    const url = `lat=${sale!.latitude}&lng=${sale!.longitude}`;
    const market = FrMarketResponse.parse((await get(`/api/v1/fr/market?${url}`)).json()).data.market;
    expect(market.sales_nearby!.items.some((i) => i.same_parcel)).toBe(true);
    const report = FrMarket.parse(ReportResponse.parse((await get(`/api/v1/fr/report?${url}&include=market`)).json()).data.market);
    expect(report).toEqual(market);
  });

  it('places the DGFiP sales, published without coordinates, at their BAN address (abbreviated street types expanded)', async () => {
    const rows = await table<{ n: bigint; placed: bigint; at_address: bigint }>(`SELECT count(*) AS n, count(*) FILTER (WHERE s.position_source = 'address') AS placed,
      count(*) FILTER (WHERE EXISTS (SELECT 1 FROM '${dataDir}/tables/addresses/country=fr/*.parquet' a WHERE a.longitude = s.longitude AND a.latitude = s.latitude AND a.locality_code IN (s.commune_code, s.arrondissement_code))) AS at_address
      FROM '${dataDir}/tables/sales/country=fr/*.parquet' s WHERE s.source = 'fr.dvf-dgfip'`);
    expect(Number(rows[0]!.n)).toBeGreaterThan(20);
    expect(rows[0]!.placed).toBe(rows[0]!.n);
    expect(rows[0]!.at_address).toBe(rows[0]!.n);
  });
});

describe('market.regulation on the samples (fr.housing-zones)', () => {
  const SAMPLE = join(REPO_ROOT, 'datasets/fr/housing-zones');
  const lists = (commune: string) => table<{ abc: string; tlv: string; scope: string | null; since: string | null; until: string | null }>(
    `SELECT a."Zonage ABC en vigueur" AS abc, t."Zonage TLV post décret 22/12/2025" AS tlv, r.perimetre AS scope, r.debut AS since, r.fin AS until
     FROM read_csv('${SAMPLE}/liste-ensemble-des-communes-zonage-abc.csv', delim = ';', header = true, all_varchar = true) a
     JOIN read_csv('${SAMPLE}/zonage-tlv.csv', delim = ';', header = true, all_varchar = true) t ON t.CODGEO25 = a.CODGEO
     LEFT JOIN read_csv('${SAMPLE}/encadrement-des-loyers.csv', delim = ';', header = true, all_varchar = true) r ON r.code_insee = a.CODGEO
     WHERE a.CODGEO = '${commune}'`);
  const regulationAt = async (lat: number, lng: number) => {
    const res = await get(`/api/v1/fr/report?lat=${lat}&lng=${lng}&include=market&locale=en`);
    expect(res.statusCode, res.body).toBe(200);
    return FrMarket.parse(ReportResponse.parse(res.json()).data.market);
  };

  it("serves Paris (listed as the commune 75056) the lists' classes and its rent control, as DuckDB reads the files", async () => {
    const [paris] = await lists('75056');
    const market = await regulationAt(48.86305, 2.36196);
    expect(market.regulation).toMatchObject({
      abc_zone: paris!.abc, tense_zone: paris!.tlv.startsWith('1') || paris!.tlv.startsWith('2'), tense_zone_class: 'tense', tense_zone_label: 'Tense zone',
      rent_control: { scope: 'commune', since: paris!.since, until: paris!.until, zone: { level: 'locality', code: '75056' } },
    });
    expect(market.missing.regulation).toBeUndefined();
  });

  it('serves Abzac zone C, not tense, and rent control null because it is not on the list', async () => {
    const [abzac] = await lists('33001');
    expect(abzac!.scope).toBeNull();
    const market = await regulationAt(45.0136, -0.1291);
    expect(market.regulation).toMatchObject({ abc_zone: abzac!.abc, tense_zone: false, tense_zone_class: 'not_tense', rent_control: null });
    expect(market.missing['regulation.rent_control']).toBe('not_covered');
  });
});
