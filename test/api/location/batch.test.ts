import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../schemas/error.ts';
import { LocationResponse } from '../../../api/location/domains/location/routes.ts';
import { RESULT_COLUMNS } from '../../../api/location/batch/routes.ts';
import { VariantLocationResponse } from '../../../api/location/variant/routes.ts';
import { parseBatchCsv, csvLine, BatchInputError } from '../../../api/location/batch/csv.ts';
import { buildFixtureData } from '../../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
const post = (url: string, body: string, contentType = 'text/csv', key: string | null = t.key) =>
  t.app.inject({ method: 'POST', url, payload: body, headers: { 'content-type': contentType, ...(key ? { authorization: `Bearer ${key}` } : {}) } });
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
/** The answer's rows as objects (the test's own reading: split on the separator, no quoted separators in these files). */
const rowsOf = (body: string, sep: string) => {
  const [head, ...lines] = body.trim().split('\r\n');
  const cols = head!.split(sep);
  return lines.map((l) => Object.fromEntries(l.split(sep).map((v, i) => [cols[i]!, v])));
};

beforeAll(async () => { t = await buildTestApp(await buildFixtureData()); });
afterAll(async () => { await t.close(); });

describe('batch CSV parsing', () => {
  it('sniffs the separator, keeps quoted fields, refuses a broken file naming the line', () => {
    expect(parseBatchCsv('id;adresse\n1;"12 rue de Bretagne; Paris"\n')).toEqual({ separator: ';', header: ['id', 'adresse'], rows: [['1', '12 rue de Bretagne; Paris']] });
    expect(() => parseBatchCsv('a,b\n1,2,3\n')).toThrow(/line 2/);
    expect(() => parseBatchCsv('a,b\n"1,2\n')).toThrow(BatchInputError);
    expect(() => parseBatchCsv('')).toThrow(/empty/);
    expect(() => parseBatchCsv('a,b\n')).toThrow(/no row/);
    expect(() => parseBatchCsv('a\n1\n2\n3\n', 2)).toThrow(/more than 2 rows/);
    expect(csvLine(['a;b', 'c"d', null, 1.5], ';')).toBe('"a;b";"c""d";;1.5\r\n');
  });
});

describe('POST /api/v1/<country>/location/csv', () => {
  it('appends the location route\'s answer to every row, in order, one quota unit per row', async () => {
    const csv = 'id;numero;voie;ville\n1;12;Rue de Bretagne;75003 Paris\n2;999;Rue Inexistante Zzz;Paris\n3;;;\n';
    const before = Number((await get('/api/v1/fr/location?lat=48.86305&lng=2.36196')).headers['x-quota-remaining']);
    const res = await post('/api/v1/fr/location/csv?columns=numero,voie,ville', csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.body.split('\r\n')[0]).toBe(['id', 'numero', 'voie', 'ville', ...RESULT_COLUMNS].join(';'));
    const rows = rowsOf(res.body, ';');
    expect(rows.map((r) => r.id)).toEqual(['1', '2', '3']);
    // Row 1: the same answer as GET /location for that address.
    const one = LocationResponse.parse((await get(`/api/v1/fr/location?address=${encodeURIComponent('12 Rue de Bretagne 75003 Paris')}`)).json()).data.location;
    expect(rows[0]).toMatchObject({
      result_status: 'ok', latitude: String(one.latitude), longitude: String(one.longitude), result_precision: one.precision, result_label: one.address!.label,
      result_score: String(one.geocoding!.score), result_citycode: one.zones.locality!.code, result_sublocality_level1: one.zones.sublocality_level1!.code,
    });
    expect(rows[1]).toMatchObject({ result_status: 'address_not_found', latitude: '', result_label: '' });
    expect(rows[2]).toMatchObject({ result_status: 'invalid_parameter', latitude: '' });
    // 3 rows cost 3 units.
    expect(Number(res.headers['x-quota-remaining'])).toBe(before - 3);
  });

  it('takes postcode and citycode filters from columns of the row', async () => {
    const csv = 'a,cp,insee\n12 Rue de Bretagne Paris,75003,75103\n12 Rue de Bretagne Paris,75003,75104\n';
    const rows = rowsOf((await post('/api/v1/fr/location/csv?columns=a&postcode=cp&citycode=insee', csv)).body, ',');
    expect(rows[0]!.result_status).toBe('ok');
    expect(rows[0]!.result_postcode).toBe('75003');
    expect(rows[1]!.result_precision).not.toBe('address');
  });

  it('answers the reverse twin from lat/lng columns', async () => {
    const csv = 'name,latitude,longitude\nbretagne,48.86305,2.36196\nsea,47.0,-8.0\nbad,abc,2.3\n';
    const res = await post('/api/v1/fr/location/reverse/csv?lat_column=latitude&lng_column=longitude', csv);
    expect(res.statusCode, res.body).toBe(200);
    const rows = rowsOf(res.body, ',');
    const one = LocationResponse.parse((await get('/api/v1/fr/location?lat=48.86305&lng=2.36196')).json()).data.location;
    expect(rows[0]).toMatchObject({ result_status: 'ok', result_label: one.address!.label, result_citycode: '75056', result_precision: 'input' });
    expect(rows[1]!.result_status).toBe('outside_coverage');
    expect(rows[2]!.result_status).toBe('invalid_parameter');
  });

  it('refuses a CSV it cannot read, a column not in the header, another media type or an oversized body with the spec\'s error body', async () => {
    const cases: [string, string, string, string][] = [
      ['/api/v1/fr/location/csv?columns=a', 'a,b\n1,2,3\n', 'text/csv', 'body'],
      ['/api/v1/fr/location/csv?columns=a', '', 'text/csv', 'body'],
      ['/api/v1/fr/location/csv?columns=zz', 'a,b\n1,2\n', 'text/csv', 'columns'],
      ['/api/v1/fr/location/csv?columns=a&postcode=zz', 'a,b\n1,2\n', 'text/csv', 'postcode'],
      ['/api/v1/fr/location/csv', 'a,b\n1,2\n', 'text/csv', 'columns'],
      ['/api/v1/fr/location/reverse/csv', 'a,b\n1,2\n', 'text/csv', 'lat_column'],
      ['/api/v1/fr/location/csv?columns=a', '{"a":1}', 'application/json', 'body'],
      ['/api/v1/fr/location/csv?columns=a', `a\n${'x'.repeat(3 * 2 ** 20)}\n`, 'text/csv', 'body'],
    ];
    for (const [url, body, type, parameter] of cases) {
      const res = await post(url, body, type);
      expect(res.statusCode, `${url} ${body.slice(0, 30)}`).toBe(400);
      expect(ErrorBody.parse(res.json()).error, `${url} ${body.slice(0, 30)}`).toMatchObject({ code: 'invalid_parameter', details: { parameter } });
    }
    const res = await post('/api/v1/fr/location/csv?columns=a', 'a\n1\n', 'text/csv', null);
    expect(res.statusCode).toBe(401);
  });

  it('is described in the OpenAPI document with its CSV body and answer', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/api/v1/fr/location/csv'].post;
    expect(Object.keys(op.requestBody.content)).toEqual(['text/csv']);
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/csv']);
    expect(op.description).toMatch(/one quota unit per data row/);
    expect(doc.paths['/api/v1/be/location/reverse/csv'].post.parameters.map((p: { name: string }) => p.name)).toEqual(['lat_column', 'lng_column', 'locale']);
  });
});

describe('POST /api/v1/location/csv (multi-country variant)', () => {
  const variant = async (q: string) => {
    const res = await get(`/api/v1/location?${q}`);
    expect(res.statusCode, `${q} -> ${res.body.slice(0, 300)}`).toBe(200);
    return VariantLocationResponse.parse(res.json()).data.location;
  };

  // The shared fixture publishes French addresses only (positions have zones in the three countries).
  it('answers each row in the country that publishes it, as GET /api/v1/location, its country in result_country', async () => {
    const csv = 'id|adresse\nfr|12 rue de Bretagne 75003 Paris\nfr2|"8, rue de Bretagne, Paris"\nnone|999 Rue Inexistante Zzz Nulle-Part\nempty|\n';
    const res = await post('/api/v1/location/csv?columns=adresse', csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body.split('\r\n')[0]).toBe(['id', 'adresse', 'result_country', ...RESULT_COLUMNS].join('|'));
    const rows = rowsOf(res.body, '|');
    expect(rows.map((r) => r.id)).toEqual(['fr', 'fr2', 'none', 'empty']);
    for (const [i, address] of [[0, '12 rue de Bretagne 75003 Paris'], [1, '8, rue de Bretagne, Paris']] as const) {
      const one = await variant(`address=${encodeURIComponent(address)}`);
      expect(rows[i], address).toMatchObject({ result_status: 'ok', result_country: one.country, latitude: String(one.latitude), longitude: String(one.longitude), result_label: one.address!.label });
    }
    expect(rows[0]).toMatchObject({ result_country: 'FR', result_precision: 'address', result_postcode: '75003', result_citycode: '75056' });
    expect(rows[2]).toMatchObject({ result_status: 'address_not_found', result_country: '', latitude: '' });
    expect(rows[3]).toMatchObject({ result_status: 'invalid_parameter', result_country: '' });
  });

  it('searches one country only when `country` says so, and counts one unit per row', async () => {
    const csv = 'a\n12 rue de Bretagne 75003 Paris\n';
    const before = Number((await get('/api/v1/fr/location?lat=48.86305&lng=2.36196')).headers['x-quota-remaining']);
    const fr = rowsOf((await post('/api/v1/location/csv?columns=a&country=FR', csv)).body, ',');
    expect(fr[0]).toMatchObject({ result_status: 'ok', result_country: 'FR', result_precision: 'address' });
    const be = await post('/api/v1/location/csv?columns=a&country=be', csv);
    expect(rowsOf(be.body, ',')[0]!.result_country).not.toBe('FR');
    expect(Number(be.headers['x-quota-remaining'])).toBe(before - 2);
  });

  it('answers the reverse twin in the country containing each position', async () => {
    const csv = 'name;lat;lng\nparis;48.86305;2.36196\nbrussels;50.8466;4.3524\nmontreal;45.5205;-73.579\nsea;47.0;-8.0\nbad;abc;2.3\n';
    const res = await post('/api/v1/location/reverse/csv', csv);
    expect(res.statusCode, res.body).toBe(200);
    const rows = rowsOf(res.body, ';');
    expect(rows.map((r) => r.result_country)).toEqual(['FR', 'BE', 'CA', '', '']);
    expect(rows.map((r) => r.result_status)).toEqual(['ok', 'ok', 'ok', 'outside_coverage', 'invalid_parameter']);
    const be = await variant('lat=50.8466&lng=4.3524');
    expect(rows[1]).toMatchObject({ result_label: be.address?.label ?? '', result_precision: 'input' });
  });

  it('refuses what it cannot read, a country outside the key or an unknown one, with the spec error body, before counting', async () => {
    const cases: [string, string, number, string, string | undefined][] = [
      ['/api/v1/location/csv?columns=a', 'a,b\n1,2,3\n', 400, 'invalid_parameter', 'body'],
      ['/api/v1/location/csv?columns=zz', 'a,b\n1,2\n', 400, 'invalid_parameter', 'columns'],
      ['/api/v1/location/csv', 'a,b\n1,2\n', 400, 'invalid_parameter', 'columns'],
      ['/api/v1/location/csv?columns=a&country=XX', 'a\n1\n', 400, 'invalid_parameter', 'country'],
      ['/api/v1/location/reverse/csv?lat_column=y', 'a,b\n1,2\n', 400, 'invalid_parameter', 'lat_column'],
    ];
    for (const [url, body, status, code, parameter] of cases) {
      const res = await post(url, body);
      expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBe(status);
      expect(ErrorBody.parse(res.json()).error, url).toMatchObject({ code, ...(parameter ? { details: { parameter } } : {}) });
    }
    const { key } = await t.keys.create({ countries: ['ca'], sandbox: false, label: 'quebec only' });
    const res = await post('/api/v1/location/csv?columns=a&country=FR', 'a\n12 rue de Bretagne 75003 Paris\n', 'text/csv', key);
    expect(res.statusCode).toBe(403);
    expect(ErrorBody.parse(res.json()).error.code).toBe('country_not_allowed');
    // Without `country`, a row answered in a country the key does not open says so in its status.
    const rows = rowsOf((await post('/api/v1/location/reverse/csv', 'lat,lng\n48.86305,2.36196\n45.5205,-73.579\n', 'text/csv', key)).body, ',');
    expect(rows.map((r) => r.result_status)).toEqual(['country_not_allowed', 'ok']);
    expect(rows.map((r) => r.result_country)).toEqual(['', 'CA']);
  });
});
