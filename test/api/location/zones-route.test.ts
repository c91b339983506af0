import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../schemas/error.ts';
import { ZoneChildrenResponse, ZoneResponse } from '../../../api/location/zones/routes.ts';
import { buildFixtureData } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });

beforeAll(async () => { t = await buildTestApp(await buildFixtureData()); });
afterAll(async () => { await t.close(); });

describe('GET /api/v1/fr/zones/{level}/{code}', () => {
  it('serves the zone and its parents, widest first', async () => {
    const res = await get('/api/v1/fr/zones/sublocality_level2/751030101');
    expect(res.statusCode).toBe(200);
    const d = ZoneResponse.parse(res.json()).data;
    expect(d.zone).toEqual({ level: 'sublocality_level2', code: '751030101', name: 'Enfants Rouges 1' });
    expect(d.parents.map((p) => `${p.level}:${p.code}`)).toEqual([
      'country:FR', 'administrative_area_level1:11', 'administrative_area_level2:75', 'locality:75056', 'sublocality_level1:75103',
    ]);
    expect(d.geometry).toBeNull();
  });

  it('serves the simplified outline as GeoJSON with geometry=true', async () => {
    const d = ZoneResponse.parse((await get('/api/v1/fr/zones/locality/33001?geometry=true')).json()).data;
    expect(d.geometry?.type).toBe('Polygon');
  });

  it('answers 404 zone_not_found for an unknown zone and 400 for an unknown level', async () => {
    const missing = await get('/api/v1/fr/zones/locality/99999');
    expect(missing.statusCode).toBe(404);
    expect(ErrorBody.parse(missing.json()).error.code).toBe('zone_not_found');
    const level = await get('/api/v1/fr/zones/galaxy/1');
    expect(level.statusCode).toBe(400);
    expect(ErrorBody.parse(level.json()).error.details).toEqual({ parameter: 'level', value: 'galaxy' });
  });
});

describe('GET /api/v1/fr/zones/{level}/{code}/children', () => {
  it('lists the child zones by code, paginated', async () => {
    const d = ZoneChildrenResponse.parse((await get('/api/v1/fr/zones/administrative_area_level2/33/children')).json()).data;
    expect(d.children.map((c) => c.code)).toEqual(['33001', '33138']);
    expect(d.pagination).toEqual({ page: 1, per_page: 100, total: 2 });
    const page2 = ZoneChildrenResponse.parse((await get('/api/v1/fr/zones/administrative_area_level2/33/children?per_page=1&page=2&geometry=true')).json()).data;
    expect(page2.children.map((c) => c.code)).toEqual(['33138']);
    expect(page2.children[0]!.geometry?.type).toBe('Polygon');
    const bad = await get('/api/v1/fr/zones/administrative_area_level2/33/children?per_page=500');
    expect(ErrorBody.parse(bad.json()).error.details.parameter).toBe('per_page');
  });
});
