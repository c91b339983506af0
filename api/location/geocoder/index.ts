/**
 * Client for an external geocoder speaking the addok `/search` API (as
 * adresse.data.gouv.fr): `GET {baseUrl}/search/?q=...&limit=5[&postcode=...]`
 * answering a GeoJSON FeatureCollection.
 *
 * Contract: `search` never throws. Network errors, timeouts, non-2xx answers,
 * malformed JSON and answers that do not match the expected schema all resolve
 * to `{ unavailable: true, reason }`, so the API can degrade gracefully.
 */
import { z } from 'zod';

export type GeocoderPrecision = 'address' | 'street' | 'locality';

export interface GeocoderResult {
  label: string;
  /** addok relevance score, 0..1 */
  score: number;
  precision: GeocoderPrecision;
  type: 'housenumber' | 'street' | 'locality' | 'municipality';
  /** WGS84, from the GeoJSON Point [lng, lat]. */
  latitude: number;
  longitude: number;
  housenumber: string | null;
  street: string | null;
  name: string | null;
  postcode: string | null;
  city: string | null;
  citycode: string | null;
  context: string | null;
  /** The geocoder's id of the result: for the BAN's addok, an address's BAN id (`<commune>_<street>_<number>[_<suffix>]`), as the BAN files' `id`. */
  id: string | null;
  /** Projected coordinates as sent by addok (Lambert-93 for BAN), if any. */
  x: number | null;
  y: number | null;
}

export type GeocoderUnavailableReason = 'timeout' | 'network' | 'http_status' | 'invalid_json' | 'invalid_response';

export interface GeocoderUnavailable {
  unavailable: true;
  reason: GeocoderUnavailableReason;
  /** Human-readable detail (status code, zod message...), for logs. */
  detail?: string;
}

export interface GeocoderSearchOptions {
  limit?: number;
  postcode?: string;
}

export interface Geocoder {
  search(q: string, opts?: GeocoderSearchOptions): Promise<GeocoderResult[] | GeocoderUnavailable>;
}

export interface GeocoderConfig {
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs: number;
}

export function isUnavailable(r: GeocoderResult[] | GeocoderUnavailable): r is GeocoderUnavailable {
  return !Array.isArray(r);
}

const PRECISION: Record<GeocoderResult['type'], GeocoderPrecision> = {
  housenumber: 'address',
  street: 'street',
  locality: 'locality',
  municipality: 'locality',
};

const optStr = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v == null ? null : String(v)));
const optNum = z.number().nullish().transform((v) => (v == null ? null : v));

const FeatureSchema = z.object({
  type: z.literal('Feature'),
  geometry: z.object({
    type: z.literal('Point'),
    coordinates: z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]).rest(z.number()),
  }),
  properties: z.object({
    label: z.string(),
    score: z.number(),
    type: z.enum(['housenumber', 'street', 'locality', 'municipality']),
    housenumber: optStr,
    street: optStr,
    name: optStr,
    postcode: optStr,
    city: optStr,
    citycode: optStr,
    context: optStr,
    id: optStr,
    x: optNum,
    y: optNum,
  }),
});

export const AddokResponseSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(FeatureSchema),
});

const MAX_LIMIT = 20;

function toResult(f: z.infer<typeof FeatureSchema>): GeocoderResult {
  const p = f.properties;
  return {
    label: p.label,
    score: p.score,
    precision: PRECISION[p.type],
    type: p.type,
    latitude: f.geometry.coordinates[1],
    longitude: f.geometry.coordinates[0],
    housenumber: p.housenumber,
    street: p.street,
    name: p.name,
    postcode: p.postcode,
    city: p.city,
    citycode: p.citycode,
    context: p.context,
    id: p.id,
    x: p.x,
    y: p.y,
  };
}

export function createGeocoder(config: GeocoderConfig): Geocoder {
  const doFetch = config.fetch ?? globalThis.fetch;
  const base = config.baseUrl.replace(/\/+$/, '');

  async function search(q: string, opts: GeocoderSearchOptions = {}): Promise<GeocoderResult[] | GeocoderUnavailable> {
    const query = q.trim();
    if (!query) return [];
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(opts.limit ?? 5)));
    const params = new URLSearchParams({ q: query, limit: String(limit) });
    if (opts.postcode) params.set('postcode', opts.postcode);
    const url = `${base}/search/?${params.toString()}`;

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), config.timeoutMs);
    try {
      let res: Response;
      try {
        res = await doFetch(url, { signal: controller.signal, headers: { accept: 'application/json' } });
      } catch (err) {
        if (controller.signal.aborted) return { unavailable: true, reason: 'timeout' };
        return { unavailable: true, reason: 'network', detail: (err as Error)?.message };
      }
      if (!res.ok) {
        // Drain the body so the connection can be reused.
        await res.arrayBuffer().catch(() => undefined);
        return { unavailable: true, reason: 'http_status', detail: String(res.status) };
      }
      let body: unknown;
      try {
        // The timeout also covers a body that trickles in.
        body = JSON.parse(await res.text());
      } catch (err) {
        if (controller.signal.aborted) return { unavailable: true, reason: 'timeout' };
        return { unavailable: true, reason: 'invalid_json', detail: (err as Error)?.message };
      }
      const parsed = AddokResponseSchema.safeParse(body);
      if (!parsed.success) {
        return { unavailable: true, reason: 'invalid_response', detail: parsed.error.message.slice(0, 500) };
      }
      return parsed.data.features.map(toResult);
    } catch (err) {
      // Defensive: nothing may escape to the caller.
      return { unavailable: true, reason: 'network', detail: (err as Error)?.message };
    } finally {
      clearTimeout(timer);
    }
  }

  return { search };
}
