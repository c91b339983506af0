/**
 * What the client space shows of a key's past: units per UTC day (written by the usage meter)
 * and the actions taken on it (key_actions).
 */
import type { Sql } from '../state/sql.ts';

export interface KeyAction {
  fingerprint: string;
  action: 'create' | 'revoke' | 'replace';
  /** The new key's fingerprint, for `replace`. */
  replacement: string | null;
  actor: string;
  at: Date;
}

/** Units per key and day over [from, to] (YYYY-MM-DD, inclusive); days without use are absent. */
export async function usageByDay(sql: Sql, fingerprints: string[], from: string, to: string): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  if (fingerprints.length === 0) return out;
  const rows = await sql.query<{ fingerprint: string; day: string; units: unknown }>(
    `SELECT fingerprint, to_char(day, 'YYYY-MM-DD') AS day, units FROM key_usage_days
      WHERE fingerprint = ANY($1::text[]) AND day BETWEEN $2::date AND $3::date`,
    [fingerprints, from, to],
  );
  for (const r of rows) {
    if (!out.has(r.fingerprint)) out.set(r.fingerprint, new Map());
    out.get(r.fingerprint)!.set(r.day, Number(r.units));
  }
  return out;
}

/** Units per key in one quota period (quota_usage). */
export async function usageInPeriod(sql: Sql, fingerprints: string[], periodStart: string): Promise<Map<string, number>> {
  if (fingerprints.length === 0) return new Map();
  const rows = await sql.query<{ fingerprint: string; units: unknown }>(
    `SELECT fingerprint, units FROM quota_usage WHERE fingerprint = ANY($1::text[]) AND period_start = $2::date`,
    [fingerprints, periodStart],
  );
  return new Map(rows.map((r) => [r.fingerprint, Number(r.units)]));
}

/** The day of each key's last counted use (the meter writes within its flush interval). */
export async function lastUsedDays(sql: Sql, fingerprints: string[]): Promise<Map<string, string>> {
  if (fingerprints.length === 0) return new Map();
  const rows = await sql.query<{ fingerprint: string; day: string }>(
    `SELECT fingerprint, to_char(max(day), 'YYYY-MM-DD') AS day FROM key_usage_days
      WHERE fingerprint = ANY($1::text[]) AND units > 0 GROUP BY fingerprint`,
    [fingerprints],
  );
  return new Map(rows.map((r) => [r.fingerprint, r.day]));
}

/** The latest actions on an agency's keys, newest first. */
export function agencyKeyActions(sql: Sql, agencyId: number, limit = 50): Promise<KeyAction[]> {
  return sql.query<KeyAction>(
    `SELECT ka.fingerprint, ka.action, ka.replacement, ka.actor, ka.at
       FROM key_actions ka JOIN api_keys k ON k.fingerprint = ka.fingerprint
      WHERE k.agency_id = $1
      ORDER BY ka.id DESC LIMIT $2`,
    [agencyId, limit],
  );
}
