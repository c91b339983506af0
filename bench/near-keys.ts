import { DuckDBInstance, quotedString } from '@duckdb/node-api';
import { boundQuery, jaroWinklerBound, jaroWinklerSimilarity, jwBytes } from '../api/location/search/jaro-winkler.ts';
import { NEAR_MIN } from '../api/location/search/official.ts';
import { tableGlob } from '../schemas/tables/layout.ts';
import { rng } from './generate.ts';

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return +s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(3); };

/**
 * The spelling-variant search of a query that names no place (issue 18): every distinct street
 * key of a country's addresses compared with a misspelt key (a letter dropped), with and without
 * the exact upper bound that skips the keys that cannot reach the threshold (jaro-winkler.ts);
 * same answers checked. Keys from a country's addresses table (e.g. the tables kept by
 * `geocode --keep DIR`, or an ingested BAN).
 */
export async function benchNearKeys(dataDir: string, country: string, queries: number) {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const rows = (await c.runAndReadAll(`SELECT DISTINCT street_key FROM read_parquet(${quotedString(tableGlob(dataDir, country, 'addresses'))}) ORDER BY 1`)).getRowObjects();
  c.closeSync(); db.closeSync();
  const keys = rows.map((r) => String(r.street_key)).filter((k) => k.length > 0);
  const bytes = keys.map(jwBytes);
  const rand = rng(18);
  const times = { plain: [] as number[], bound: [] as number[] };
  let skipped = 0, same = 0;
  for (let i = 0; i < queries; i++) {
    const k = keys[Math.floor(rand() * keys.length)]!;
    const at = Math.floor(rand() * k.length);
    const q = jwBytes(k.slice(0, at) + k.slice(at + 1));
    let t = performance.now();
    const plain: string[] = [];
    for (let j = 0; j < keys.length; j++) if (jaroWinklerSimilarity(bytes[j]!, q) >= NEAR_MIN) plain.push(keys[j]!);
    times.plain.push(performance.now() - t);
    t = performance.now();
    const bq = boundQuery(q), bounded: string[] = [];
    for (let j = 0; j < keys.length; j++) {
      if (jaroWinklerBound(bytes[j]!, bq) < NEAR_MIN - 1e-9) { skipped++; continue; }
      if (jaroWinklerSimilarity(bytes[j]!, q) >= NEAR_MIN) bounded.push(keys[j]!);
    }
    times.bound.push(performance.now() - t);
    if (plain.join('\n') === bounded.join('\n')) same++;
  }
  return {
    keys: keys.length, queries, same_answers: same,
    skipped_share: +(skipped / (queries * keys.length)).toFixed(3),
    plain_ms: { p50: pct(times.plain, 0.5), p99: pct(times.plain, 0.99) },
    bound_ms: { p50: pct(times.bound, 0.5), p99: pct(times.bound, 0.99) },
    p50_ratio: +(pct(times.bound, 0.5) / pct(times.plain, 0.5)).toFixed(3),
  };
}
