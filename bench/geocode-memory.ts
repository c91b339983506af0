import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchApp } from './app.ts';
import { addressIndexReady } from '../api/location/search/address-index.ts';
import type { Country } from '../schemas/common.ts';

const mb = (b: number) => Math.round(b / 2 ** 20);

/** The process's peak RSS since its start or the last reset (VmHWM, Linux), in MB. */
function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}
/** Resets the peak to the current RSS (Linux: "5" to /proc/self/clear_refs). */
function resetPeakRss(): void {
  try { writeFileSync('/proc/self/clear_refs', '5'); } catch { /* not Linux: the peak then counts from the start */ }
}

/**
 * Memory of an API process holding the three countries' address indexes (issue 18's 2 GB target):
 * a fresh process over tables already ingested (`bench -- geocode --keep DIR` leaves them in
 * DIR/data), RSS and DuckDB's own count before the indexes and with them, after a collection
 * (run node with --expose-gc for it), and the peak RSS while the three are made, started together
 * as the server starts them (VmHWM, reset after the snapshot before them). `fresh`: the saved
 * segments are dropped first, so the indexes are built from DuckDB (a first start); else they are
 * loaded (a restart).
 */
export async function benchGeocodeMemory(dataDir: string, fresh: boolean) {
  if (fresh) rmSync(join(dataDir, '.index'), { recursive: true, force: true });
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const snap = async (warehouse: { query: <T>(s: string) => Promise<T[]> }) => {
    gc(); await new Promise((r) => setTimeout(r, 200)); gc();
    const m = process.memoryUsage();
    const duck = await warehouse.query<{ tag: string; mb: number }>('SELECT tag, round(memory_usage_bytes / 2^20) AS mb FROM duckdb_memory() WHERE memory_usage_bytes > 0 ORDER BY 2 DESC');
    return { rss_mb: mb(m.rss), heap_mb: mb(m.heapUsed), external_mb: mb(m.external), duckdb_mb: Object.fromEntries(duck.map((d) => [d.tag, d.mb])) };
  };
  const { app, warehouse, sql } = await benchApp(dataDir);
  const before = await snap(warehouse);
  const peakAtStart = peakRssMb();
  resetPeakRss();
  const indexes: Record<string, { addresses: number; bytes_per_address: number; mb: number; ready_after_s: number; peak_rss_mb_so_far: number }> = {};
  let addresses = 0, bytes = 0;
  // Started together, as the server starts them (api/main.ts, locationReady).
  const t = performance.now();
  const made = await Promise.all((['fr', 'ca', 'be'] as Country[]).map((c) => addressIndexReady(warehouse, c).then((index) => ({ c, index, seconds: (performance.now() - t) / 1000, peak: peakRssMb() }))));
  for (const { c, index, seconds, peak } of made) {
    if (!index) throw new Error(`${c}: no address index (no table, or over budget)`);
    addresses += index.size; bytes += index.bytes;
    indexes[c] = { addresses: index.size, bytes_per_address: +(index.bytes / index.size).toFixed(1), mb: mb(index.bytes), ready_after_s: +seconds.toFixed(1), peak_rss_mb_so_far: peak };
  }
  const peakWhileMade = peakRssMb();
  const after = await snap(warehouse);
  await app.close(); await warehouse.close(); await sql.close();
  return { built_from: fresh ? 'duckdb' : 'saved segments (restart)', addresses, bytes_per_address: +(bytes / addresses).toFixed(1), index_mb: mb(bytes), indexes, before_indexes: before, with_indexes: after,
    peak_rss_mb: { opening: peakAtStart, while_indexes_made: peakWhileMade } };
}
