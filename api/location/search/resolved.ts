import type { Country } from '../../../schemas/common.ts';
import type { Precision } from '../../../schemas/location.ts';
import type { Sql } from '../../core/state/sql.ts';

export interface ResolvedAddress {
  label: string;
  latitude: number;
  longitude: number;
  precision: Precision;
  source: string;
}

/**
 * Addresses already resolved by the service (spec 2.6, step 2): what the geocoder answered for
 * an address absent from official lists, so the next request for it is answered here.
 */
export function createResolvedAddresses(sql: Sql) {
  return {
    async find(country: Country, normalizedQuery: string): Promise<ResolvedAddress | null> {
      const rows = await sql.query<{ label: string; latitude: number; longitude: number; precision: Precision; source: string }>(
        `UPDATE resolved_addresses SET hits = hits + 1 WHERE normalized_query = $1 AND country = $2
         RETURNING label, latitude, longitude, precision, source`,
        [normalizedQuery, country],
      );
      const r = rows[0];
      return r ? { label: r.label, latitude: Number(r.latitude), longitude: Number(r.longitude), precision: r.precision, source: r.source } : null;
    },
    async record(country: Country, normalizedQuery: string, a: ResolvedAddress, raw: unknown, now: Date): Promise<void> {
      await sql.query(
        `INSERT INTO resolved_addresses (normalized_query, country, label, latitude, longitude, precision, source, raw, resolved_at, hits)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0)
         ON CONFLICT (normalized_query, country) DO UPDATE SET label = EXCLUDED.label, latitude = EXCLUDED.latitude,
           longitude = EXCLUDED.longitude, precision = EXCLUDED.precision, source = EXCLUDED.source, raw = EXCLUDED.raw, resolved_at = EXCLUDED.resolved_at`,
        [normalizedQuery, country, a.label, a.latitude, a.longitude, a.precision, a.source, JSON.stringify(raw), now.toISOString()],
      );
    },
  };
}
export type ResolvedAddresses = ReturnType<typeof createResolvedAddresses>;
