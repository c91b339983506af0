import { readFile, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestBuildings } from '../../../../../ingest/fr/buildings.ts';
import { REPO_ROOT, runSamples } from '../../../../../ingest/jobs.ts';
import { BuildingResponse } from '../../../../../api/location/domains/building/routes.ts';
import { ErrorBody } from '../../../../../schemas/error.ts';
import { duckRows } from '../../../../helpers/duckdb.ts';
import { silentContext } from '../../../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../../../helpers/app.ts';

const BAN = join(REPO_ROOT, 'datasets/fr/ban/adresses-75.csv');
let dataDir: string;
let t: TestApp;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
const ids = async () => duckRows<{ key: string; id: string }>(`SELECT key, id FROM read_parquet('${dataDir}/fr/id_registry/*.parquet') ORDER BY key`);

beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'lds-building-')), 'data');
  await runSamples(silentContext(dataDir));
  t = await buildTestApp(dataDir);
}, 300_000); // every sample job runs first: minutes on a loaded machine
afterAll(async () => { await t?.close(); });

describe('GET /api/v1/fr/building and /buildings/{id}', () => {
  it('serves the building at an address: RNB footprint, BDNB values as Features, diagnoses at its address, sales on its parcel', async () => {
    const links = await duckRows<{ building_id: string; key: string }>(`SELECT building_id, key FROM '${dataDir}/fr/building_links/rnb-75.parquet' WHERE kind = 'parcel'`);
    const sold = await duckRows<{ parcels: string }>(`SELECT parcels FROM read_parquet('${dataDir}/fr/sales/*.parquet')`);
    const diagnosed = await duckRows<{ ban_id: string }>(`SELECT ban_id FROM '${dataDir}/fr/diagnoses/dpe_v2_existing-75.parquet' WHERE level = 'dwelling'`);
    const ban = (await readFile(BAN, 'utf8')).trim().split('\n').slice(1).map((l) => l.split(';'));
    // An address whose parcel is sold and whose address carries a diagnosis.
    const c = ban.find((r) => r[22] && links.some((l) => l.key === r[22]) && sold.some((s) => s.parcels.split('|').includes(r[22]!)) && diagnosed.some((d) => d.ban_id === r[0]))!;
    expect(c).toBeTruthy();
    const res = await get(`/api/v1/fr/building?lat=${c[13]}&lng=${c[12]}`);
    expect(res.statusCode).toBe(200);
    const body = BuildingResponse.parse(res.json());
    const b = body.data.building as Extract<typeof body.data.building, { id: string }>;
    expect(b.id).toBe(links.find((l) => l.key === c[22])!.building_id);
    expect(b.status).toBe('partial');
    expect(b.construction_year?.document.type).toBe('building_record');
    expect(b.energy_diagnoses.length).toBeGreaterThan(0);
    expect(b.sales.length).toBeGreaterThan(0);
    expect(b.sales_attachment).toBe('parcel');
    expect(body.meta.warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/^copro: not ingested yet/));
    // The location names it, and the by-id route serves the same building.
    const loc = await get(`/api/v1/fr/location?lat=${c[13]}&lng=${c[12]}`);
    expect(loc.json().data.location.building_id).toBe(b.id);
    const byId = await get(`/api/v1/fr/buildings/${b.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json().data.building).toEqual(b);
  });

  it('answers insufficient_precision at street precision, never the wrong building', async () => {
    const res = await get('/api/v1/fr/building?address=Rue+de+la+Roquette+75011+Paris');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.building).toEqual({ status: 'insufficient_precision', missing: { building: 'insufficient_precision' } });
  });

  it('answers 400 for a malformed id and 404 building_not_found for an unknown one', async () => {
    const bad = await get('/api/v1/fr/buildings/bld_12');
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json()).error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'building_id' } });
    const unknown = await get(`/api/v1/fr/buildings/bld_${'0'.repeat(20)}`);
    expect(unknown.statusCode).toBe(404);
    expect(ErrorBody.parse(unknown.json()).error.code).toBe('building_not_found');
  });

  it('re-ingesting every source changes no id', async () => {
    const before = await ids();
    expect(before.length).toBeGreaterThan(300);
    await runSamples(silentContext(dataDir));
    expect(await ids()).toEqual(before);
  });

  it('answers 301 toward the kept id when a new BDNB version shows two RNB buildings to be one', async () => {
    const rnbRows = (await readFile(join(REPO_ROOT, 'datasets/fr/buildings/RNB_33.csv'), 'utf8')).trim().split('\n').slice(1).map((l) => l.split(';')[0]!);
    const bdnbFile = join(REPO_ROOT, 'datasets/fr/buildings/bdnb_batiment_groupe_compile_33.csv');
    const lines = (await readFile(bdnbFile, 'utf8')).trim().split('\n');
    const withGroup = new Set(lines.slice(1).map((l) => l.split(',')[3]!));
    const lone = rnbRows.find((r) => !withGroup.has(r))!;
    // The first group now names the lone RNB building too: its group and that building are one.
    const [head, first, ...rest] = lines;
    const cols = first!.split(',');
    const twin = [...cols];
    twin[3] = lone;
    const dir = await mkdtemp(join(tmpdir(), 'lds-bdnb-v2-'));
    await writeFile(join(dir, 'bdnb.csv'), `${[head, first, twin.join(','), ...rest].join('\n')}\n`);
    const idOf = async (rnb: string) => (await duckRows<{ id: string }>(`SELECT id FROM '${dataDir}/fr/id_registry/bld.parquet' WHERE key = 'rnb:${rnb}'`))[0]!.id;
    const [kept, abandoned] = [await idOf(cols[3]!), await idOf(lone)];
    await ingestBuildings({ ...silentContext(dataDir), maxRejectShare: 0.05 }, { rnb: { path: join(REPO_ROOT, 'datasets/fr/buildings/RNB_33.csv') }, bdnb: { path: join(dir, 'bdnb.csv') } });
    const merged = await duckRows<{ from_id: string; to_id: string }>(`SELECT from_id, to_id FROM '${dataDir}/fr/id_merges/bld.parquet'`);
    expect(merged).toEqual([{ from_id: abandoned, to_id: kept }]);
    await t.warehouse.refresh();
    const res = await get(`/api/v1/fr/buildings/${abandoned}`);
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`/api/v1/fr/buildings/${kept}`);
    expect((await get(`/api/v1/fr/buildings/${kept}`)).statusCode).toBe(200);
  });
});
