import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchApp } from './app.ts';
import { ingestNational, nationalSizes } from './national.ts';
import { addressIndexReady, addressIndexStats, buildAddressIndex, setAddressIndexBudget, ADDRESS_INDEX_BUDGET_BYTES, type BuildStats } from '../api/location/search/address-index.ts';
import { rng } from './generate.ts';
import type { Country } from '../schemas/common.ts';
import { isInCountry } from '../api/location/coverage/index.ts';

const devNull = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const mb = (b: number) => Math.round(b / 2 ** 20);

export interface GeocodeBenchOptions {
  /** A folder kept between runs: the tables are ingested there once per size (and the saved index segments loaded at the next run). */
  keep?: string;
  /** Skip the DuckDB baseline (slow at 10 M and more). */
  noBaseline?: boolean;
}

/**
 * Geocoding at national scale (issue 18): France-like addresses (with Quebec and Belgium beside
 * them at the real files' ratio) ingested by the production jobs, then lookups by position and
 * by address through the whole server, first with DuckDB answering (the path served above the
 * index's budget before this change: the baseline, same run), then with the address indexes of
 * the three countries built. Throughput: `concurrency` requests in flight on the machine's cores.
 */
export async function benchGeocode(addresses: number, queries: number, concurrency = 4, log: (s: string) => void = () => {}, opts: GeocodeBenchOptions = {}) {
  const root = opts.keep ?? await mkdtemp(join(tmpdir(), 'bench-geocode-'));
  const dataDir = join(root, 'data');
  const sizes = nationalSizes(addresses);
  const ctx = { dataDir, maxRejectShare: 0.01, now: () => new Date(), log: () => {}, progressOut: devNull };
  // A kept folder holds the tables of one size: ingested once, reused by the next runs.
  const done = join(root, `ingested-${addresses}`);
  let ingestS: number | null = null;
  if (!opts.keep || !existsSync(done)) {
    if (opts.keep) { await rm(dataDir, { recursive: true, force: true }); await mkdir(root, { recursive: true }); }
    const ingest = await ingestNational(ctx, join(root, 'work'), sizes, log);
    await rm(join(root, 'work'), { recursive: true, force: true });
    ingestS = Math.round(ingest.seconds);
    if (opts.keep) await writeFile(done, `${ingestS}\n`);
    log(`ingested in ${ingestS} s`);
  }
  // The build is measured from DuckDB every run: segments saved by a previous run are dropped.
  await rm(join(dataDir, '.index'), { recursive: true, force: true });
  setAddressIndexBudget(0);
  const { app, key, sql, warehouse } = await benchApp(dataDir);
  const rand = rng(17);
  // Addresses of coastal communes may lie off the coverage outline: positions are drawn on land.
  const rows = (await warehouse.query<{ label: string; latitude: number; longitude: number }>(`SELECT label, latitude, longitude FROM fr_addresses USING SAMPLE ${queries * 2} ROWS (reservoir, 7)`))
    .filter((r) => isInCountry('fr', r.longitude - 0.0004, r.latitude - 0.0003) && isInCountry('fr', r.longitude + 0.0004, r.latitude + 0.0003)).slice(0, queries);
  // Positions near addresses (within about 30 m), so that the nearest address is searched for real.
  const positions = rows.map((r) => `/api/v1/fr/location?lat=${(r.latitude + (rand() - 0.5) * 0.0005).toFixed(6)}&lng=${(r.longitude + (rand() - 0.5) * 0.0007).toFixed(6)}`);
  const labels = rows.map((r) => `/api/v1/fr/location?address=${encodeURIComponent(r.label)}`);
  const one = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
    // Not found is an answer (counted); any other failure stops the bench.
    if (res.statusCode === 404) return { location: { precision: 'not_found' } };
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return (JSON.parse(res.body) as { data: { location: { precision: string } } }).data;
  };
  const run = async (urls: string[]) => {
    const lat: number[] = [];
    let exact = 0, notFound = 0;
    const t0 = performance.now();
    for (const url of urls) {
      const t = performance.now();
      const p = (await one(url)).location.precision;
      if (p === 'address') exact++; else if (p === 'not_found') notFound++;
      lat.push(performance.now() - t);
    }
    const total = (performance.now() - t0) / 1000;
    lat.sort((a, b) => a - b);
    return { queries: urls.length, per_s: Math.round(urls.length / total), p50_ms: +percentile(lat, 50).toFixed(2), p99_ms: +percentile(lat, 99).toFixed(2), at_address: exact, not_found: notFound };
  };
  const concurrent = async (urls: string[]) => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => { while (next < urls.length) await one(urls[next++]!); }));
    return Math.round(urls.length / ((performance.now() - t0) / 1000));
  };
  // Baseline: DuckDB answers (no address index), on a subset (it is slow at scale).
  const base = Math.min(queries, 500);
  await one(positions[0]!); await one(labels[0]!);
  const baseline = opts.noBaseline ? null : { by_position: await run(positions.slice(0, base)), by_address: await run(labels.slice(0, base)) };
  log(`baseline ${JSON.stringify(baseline)}`);

  setAddressIndexBudget(ADDRESS_INDEX_BUDGET_BYTES);
  const rssBefore = process.memoryUsage().rss;
  const build: Record<string, { seconds: number; addresses: number; mb: number; bytes_per_address: number; from_duckdb_s: number; arrow_save_s: number }> = {};
  for (const c of ['fr', 'ca', 'be'] as Country[]) {
    const t = performance.now();
    const index = await addressIndexReady(warehouse, c);
    if (!index) throw new Error(`${c}: no address index (over budget?)`);
    const st = addressIndexStats(c)!;
    build[c] = { seconds: +((performance.now() - t) / 1000).toFixed(1), addresses: index.size, mb: mb(index.bytes), bytes_per_address: +(index.bytes / index.size).toFixed(1),
      from_duckdb_s: +(st.buildMs / 1000).toFixed(1), arrow_save_s: +(st.saveMs / 1000).toFixed(1) };
    log(`${c} index ${JSON.stringify(build[c])}`);
  }
  (globalThis as { gc?: () => void }).gc?.();
  const rss = process.memoryUsage().rss;
  const indexed = { by_position: await run(positions), by_address: await run(labels) };
  const throughput = { concurrency, by_position_per_s: await concurrent(positions), by_address_per_s: await concurrent(labels) };
  // A restart: the same files, the segments loaded from their Arrow IPC files (one country at a time, dropped after).
  const restart: Record<string, { load_s: number; segments: number; load_to_build: number }> = {};
  for (const c of ['fr', 'ca', 'be'] as Country[]) {
    const st: BuildStats = { built: 0, loaded: 0, buildMs: 0, loadMs: 0, saveMs: 0 };
    const t = performance.now();
    await buildAddressIndex(warehouse, c, ADDRESS_INDEX_BUDGET_BYTES, true, st);
    const s = (performance.now() - t) / 1000;
    restart[c] = { load_s: +s.toFixed(2), segments: st.loaded, load_to_build: +(s / build[c]!.seconds).toFixed(3) };
  }
  await app.close(); await warehouse.close(); await sql.close();
  if (!opts.keep) await rm(root, { recursive: true, force: true });
  return {
    addresses: sizes, ingest_s: ingestS, baseline_duckdb: baseline, index_build: build,
    rss_mb: { before_indexes: mb(rssBefore), with_three_indexes: mb(rss) },
    indexed, throughput, restart_from_arrow: restart,
    p50_ratio_index_to_baseline: baseline && { by_position: +(indexed.by_position.p50_ms / baseline.by_position.p50_ms).toFixed(3), by_address: +(indexed.by_address.p50_ms / baseline.by_address.p50_ms).toFixed(3) },
  };
}
