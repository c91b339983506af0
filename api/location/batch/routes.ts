import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Country, Locale } from '../../../schemas/common.ts';
import { ZONE_LEVEL_ORDER } from '../../../schemas/zone.ts';
import { storableText } from '../../../schemas/inputs.ts';
import { ApiError } from '../../core/errors.ts';
import type { AnyRoute } from '../../core/routes.ts';
import { locate, type LocateDeps } from '../locate.ts';
import { locateAnywhere } from '../variant/locate.ts';
import type { Location } from '../../../schemas/location.ts';
import { addressSearchShape, localeOf, placeShape, PLACE_ERRORS } from '../params.ts';
import type { PlaceInput } from '../params.ts';
import { BATCH_MAX_BYTES, BATCH_MAX_ROWS, BatchInputError, columnsOf, csvLine, parseBatchCsv, type CsvTable } from './csv.ts';

/** Columns appended to each row, in this order (zone codes: one column per level but the country). */
const ZONE_COLUMNS = ZONE_LEVEL_ORDER.filter((l) => l !== 'country');
export const RESULT_COLUMNS = ['latitude', 'longitude', 'result_status', 'result_precision', 'result_score', 'result_label', 'result_postcode', 'result_citycode', ...ZONE_COLUMNS.map((l) => `result_${l}`)] as const;

const columnName = () => z.string().trim().min(1).max(200).pipe(storableText);
const columnList = z.string().trim().min(1, 'columns is empty').max(2000).pipe(storableText)
  .transform((s) => s.split(',').map((c) => c.trim()).filter((c) => c !== ''))
  .refine((l) => l.length > 0 && l.length <= 20, 'columns must name 1 to 20 columns, comma-separated');

export const BatchSearchQuery = z.strictObject({
  columns: columnList.describe('comma-separated columns whose values, joined by spaces, form the address of a row (e.g. numero,voie,code_postal,commune)'),
  postcode: columnName().optional().describe('column holding a postcode that filters the candidates of its row'),
  citycode: columnName().optional().describe('column holding a commune or municipality code that filters the candidates of its row'),
  locale: placeShape.locale,
});
export const BatchReverseQuery = z.strictObject({
  lat_column: columnName().default('lat').describe('column holding the WGS84 latitude (default lat)'),
  lng_column: columnName().default('lng').describe('column holding the WGS84 longitude (default lng)'),
  locale: placeShape.locale,
});

const BATCH_DESCRIPTION = `Body: a CSV file (text/csv, UTF-8, at most ${BATCH_MAX_BYTES / 2 ** 20} MB and ${BATCH_MAX_ROWS} rows, separator ; , tab or | read from the header line). `
  + `Answer: the same CSV, streamed row by row, with these columns appended: ${RESULT_COLUMNS.join(', ')}. result_status is ok, or the error code the location route would answer for the row `
  + '(address_not_found, outside_coverage, invalid_parameter); the other result columns are then empty. Cost: one quota unit per data row, counted before geocoding '
  + '(quota_exceeded when the period has fewer units left than rows). A CSV that cannot be read (no header, a row with another number of fields, an unclosed quote, too many rows) '
  + 'answers invalid_parameter naming body, and a column named that is not in the header answers invalid_parameter naming the parameter: nothing is geocoded then.';

type Row = { input: PlaceInput | null; invalid: string | null };

/** How a batch places one row: the country answering (null on a country route, said by the URL) and its location. */
type Place<Q> = (input: PlaceInput, locale: Locale, request: FastifyRequest, query: Q) => Promise<{ country: Country | null; location: Location }>;

/** The result columns of a row: the location route's answer, or its error code (the country first on the multi-country routes). */
async function resultOf<Q>(place: Place<Q>, row: Row, locale: Locale, request: FastifyRequest, query: Q, withCountry: boolean, log: (e: unknown) => void): Promise<(string | number | null)[]> {
  const empty = [...(withCountry ? [null] : []), ...RESULT_COLUMNS.map(() => null as string | number | null)];
  const status = withCountry ? 3 : 2;
  if (!row.input) { empty[status] = 'invalid_parameter'; return empty; }
  try {
    const { country, location } = await place(row.input, locale, request, query);
    return [
      ...(withCountry ? [country === null ? null : country.toUpperCase()] : []),
      location.latitude, location.longitude, 'ok', location.precision, location.geocoding?.score ?? null, location.address?.label ?? null,
      location.address?.zipcode ?? null, location.zones.locality?.code ?? null, ...ZONE_COLUMNS.map((l) => location.zones[l]?.code ?? null),
    ];
  } catch (e) {
    if (e instanceof ApiError) { empty[status] = e.code; return empty; }
    log(e);
    empty[status] = 'internal_error';
    return empty;
  }
}

/** Parses the body, checks the quota for every row, and streams the answer (one row at a time, in order). */
function batchHandler<Q extends { locale?: Locale }>(place: Place<Q>, withCountry: boolean, inputsOf: (t: CsvTable, q: Q) => Row[], check: (request: FastifyRequest, query: Q) => void = () => {}) {
  return async ({ request, reply, query }: { request: FastifyRequest; reply: FastifyReply; query: Q }) => {
    check(request, query);
    let table: CsvTable, rows: Row[];
    try {
      table = parseBatchCsv(typeof request.body === 'string' ? request.body : '');
      rows = inputsOf(table, query);
    } catch (e) {
      if (e instanceof BatchInputError) throw new ApiError('invalid_parameter', e.message, { parameter: e.parameter, value: null });
      throw e;
    }
    // One unit per row: refused whole when the period has fewer left (the guard checked one).
    const remaining = Number(reply.getHeader('X-Quota-Remaining'));
    if (Number.isFinite(remaining) && rows.length > remaining) {
      throw new ApiError('quota_exceeded', `${rows.length} rows cost ${rows.length} units; ${remaining} are left in this period`, { rows: rows.length, remaining });
    }
    request.units = rows.length;
    const locale = localeOf(request, query.locale);
    const log = (e: unknown) => request.log.error({ err: e }, 'batch row failed');
    async function* lines() {
      yield csvLine([...table.header, ...(withCountry ? ['result_country'] : []), ...RESULT_COLUMNS], table.separator);
      for (let i = 0; i < rows.length; i++) yield csvLine([...table.rows[i]!, ...await resultOf(place, rows[i]!, locale, request, query, withCountry, log)], table.separator);
    }
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="geocoded.csv"`).send(Readable.from(lines()));
  };
}

const address = placeShape.address, lat = placeShape.lat, lng = placeShape.lng;
const postcodeValue = addressSearchShape.postcode, citycodeValue = addressSearchShape.citycode;

/** A row's address from the columns named (joined by spaces), with its postcode and citycode filters. */
function addressRows(t: CsvTable, q: z.infer<typeof BatchSearchQuery>): Row[] {
  const cols = columnsOf(t, 'columns', q.columns);
  const [pc] = q.postcode ? columnsOf(t, 'postcode', [q.postcode]) : [];
  const [cc] = q.citycode ? columnsOf(t, 'citycode', [q.citycode]) : [];
  return t.rows.map((r) => {
    const a = address.safeParse(cols.map((i) => r[i]!.trim()).filter((v) => v !== '').join(' '));
    const p = pc === undefined || r[pc]!.trim() === '' ? { success: true as const, data: undefined } : postcodeValue.safeParse(r[pc]!);
    const c = cc === undefined || r[cc]!.trim() === '' ? { success: true as const, data: undefined } : citycodeValue.safeParse(r[cc]!);
    if (!a.success || a.data === undefined || !p.success || !c.success) return { input: null, invalid: 'row' };
    return { input: { kind: 'address' as const, address: a.data, search: { postcode: p.data, citycode: c.data } }, invalid: null };
  });
}

/** A row's position from its latitude and longitude columns. */
function positionRows(t: CsvTable, q: z.infer<typeof BatchReverseQuery>): Row[] {
  const [la, ln] = [columnsOf(t, 'lat_column', [q.lat_column])[0]!, columnsOf(t, 'lng_column', [q.lng_column])[0]!];
  return t.rows.map((r) => {
    const a = lat.safeParse(r[la]!), b = lng.safeParse(r[ln]!);
    if (!a.success || !b.success || a.data === undefined || b.data === undefined) return { input: null, invalid: 'row' };
    return { input: { kind: 'position' as const, lat: a.data, lng: b.data }, invalid: null };
  });
}

/** POST /api/v1/<country>/location/csv and /location/reverse/csv: batch geocoding (issue 18, as API Adresse's /search/csv/ and /reverse/csv/). */
export function batchRoutes(country: Country, deps: LocateDeps): AnyRoute[] {
  const place = async (input: PlaceInput, locale: Locale) => ({ country: null, location: (await locate(deps, country, input, locale)).location });
  const search: AnyRoute = {
    method: 'POST', url: `/api/v1/${country}/location/csv`, tags: [country], summary: 'Batch geocoding of a CSV file (addresses)',
    description: BATCH_DESCRIPTION, query: BatchSearchQuery, response: z.string(), errors: [...PLACE_ERRORS], body: { contentType: 'text/csv', description: 'CSV file with a header line' }, responseContentType: 'text/csv',
    policy: { auth: true, country, domain: 'location', units: 'report' },
    handler: batchHandler(place, false, addressRows),
  };
  const reverse: AnyRoute = {
    method: 'POST', url: `/api/v1/${country}/location/reverse/csv`, tags: [country], summary: 'Batch reverse geocoding of a CSV file (positions)',
    description: BATCH_DESCRIPTION, query: BatchReverseQuery, response: z.string(), errors: [...PLACE_ERRORS], body: { contentType: 'text/csv', description: 'CSV file with a header line' }, responseContentType: 'text/csv',
    policy: { auth: true, country, domain: 'location', units: 'report' },
    handler: batchHandler(place, false, positionRows),
  };
  return [search, reverse];
}

const countryParam = z.enum(['FR', 'BE', 'CA', 'fr', 'be', 'ca']).transform((c) => c.toLowerCase() as Country).optional()
  .describe('FR, BE or CA: every row is searched in that country only (by default, each row in the country of its answer, as GET /api/v1/location)');
export const VariantBatchSearchQuery = BatchSearchQuery.extend({ country: countryParam });
export const VariantBatchReverseQuery = BatchReverseQuery.extend({ country: countryParam });

/**
 * POST /api/v1/location/csv and /location/reverse/csv: the multi-country variant's batch (spec
 * 4.5): each row answered as GET /api/v1/location answers it (an address in the official
 * addresses of each country, a position in the country containing it), its country in
 * result_country; a row in a country the key does not open answers country_not_allowed.
 */
export function variantBatchRoutes(deps: LocateDeps): AnyRoute[] {
  const place = async (input: PlaceInput, locale: Locale, request: FastifyRequest, query: { country?: Country }) => {
    const answer = await locateAnywhere(deps, input, query.country ?? null, request.apiKey!.countries as Country[], locale);
    return { country: answer.country, location: answer.location };
  };
  // A country the key does not open, named for the whole file: refused before anything is read or counted.
  const allowed = (request: FastifyRequest, query: { country?: Country }) => {
    const c = query.country;
    if (c && !request.apiKey!.countries.includes(c)) throw new ApiError('country_not_allowed', `this key is not opened for country ${c.toUpperCase()}`, { country: c.toUpperCase() });
  };
  const description = `${BATCH_DESCRIPTION} The column result_country (FR, BE or CA) comes before the others; a row placed in a country the key does not open answers country_not_allowed.`;
  const errors = ['invalid_parameter', 'unauthorized', 'domain_not_allowed', 'country_not_allowed', 'rate_limited', 'quota_exceeded', 'internal_error', 'maintenance'] as const;
  return [{
    method: 'POST', url: '/api/v1/location/csv', tags: ['multi-country'], summary: 'Batch geocoding of a CSV file (addresses) in any covered country',
    description, query: VariantBatchSearchQuery, response: z.string(), errors: [...errors], body: { contentType: 'text/csv', description: 'CSV file with a header line' }, responseContentType: 'text/csv',
    policy: { auth: true, domain: 'location', units: 'report' },
    handler: batchHandler<z.infer<typeof VariantBatchSearchQuery>>(place, true, addressRows, allowed),
  }, {
    method: 'POST', url: '/api/v1/location/reverse/csv', tags: ['multi-country'], summary: 'Batch reverse geocoding of a CSV file (positions) in any covered country',
    description, query: VariantBatchReverseQuery, response: z.string(), errors: [...errors], body: { contentType: 'text/csv', description: 'CSV file with a header line' }, responseContentType: 'text/csv',
    policy: { auth: true, domain: 'location', units: 'report' },
    handler: batchHandler<z.infer<typeof VariantBatchReverseQuery>>(place, true, positionRows, allowed),
  }];
}

/** The CSV body parser of the batch routes (text/csv and text/plain), bounded in size. */
export function registerCsvBody(app: FastifyInstance): void {
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string', bodyLimit: BATCH_MAX_BYTES }, (_req, body, done) => done(null, body));
}
