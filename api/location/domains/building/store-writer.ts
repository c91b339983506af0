import { fork } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { DuckDBInstance, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import { writeKeyedStore } from '../../../core/keyed-store.ts';

/**
 * Writing the building stores: each is a SELECT over some tables' Parquet files sorted by key
 * (keyed-store.ts). DuckDB's sort of a national table takes its process past a gigabyte whatever
 * its `memory_limit` (1,709 MB peak at national counts with 512 MB, docs/benchmarks.md), so large
 * inputs are written by a child process (this file is its entry) and the server keeps none of it;
 * small ones, where a child's start (about 0.6 s of CPU) would cost more than the sort, in process.
 */

/** One store to write: the views it reads (table -> files), its SELECT and order, where it goes. */
export interface StoreSpec { views: Record<string, string[]>; select: string; order: string; partial: string; path: string }
export interface StoreJob { memory: string; tmp: string; stores: StoreSpec[] }
type Message = { written: string } | { done: true; peak_rss_mb: number } | { error: string };

/** A run of store writing: ends when every store is written, fails on the first error; `stop` ends it early (it then fails). */
export interface StoreWriting { done: Promise<{ peak_rss_mb: number | null }>; stop(): void }

/** Writes the stores in this process, in a DuckDB of its own with a bounded memory. */
export function writeStoresHere(job: StoreJob, onWritten: (path: string) => void = () => {}): StoreWriting {
  let stopped = false, running: DuckDBConnection | null = null;
  const done = (async () => {
    const db = await DuckDBInstance.create(':memory:', { memory_limit: job.memory, threads: '2', temp_directory: job.tmp });
    try {
      for (const s of job.stores) {
        if (stopped) throw new Error('stopped before every building store was written');
        const c = await db.connect();
        running = c;
        try { await writeOne(c, s); } finally { running = null; c.closeSync(); }
        onWritten(s.path);
      }
    } finally { db.closeSync(); }
    return { peak_rss_mb: null };
  })();
  return { done, stop() { stopped = true; running?.interrupt(); } };
}

async function writeOne(c: DuckDBConnection, s: StoreSpec): Promise<void> {
  for (const [table, files] of Object.entries(s.views)) {
    await c.run(`CREATE OR REPLACE VIEW fr_${table} AS SELECT * FROM read_parquet([${files.map(quotedString).join(', ')}], union_by_name = true, hive_partitioning = false, filename = true)`);
  }
  try {
    await writeKeyedStore(c, s.select, s.order, s.partial);
    renameSync(s.partial, s.path);
  } finally { rmSync(s.partial, { force: true }); }
}

/** tsx's loader, by path: the child runs this TypeScript file whatever the server's working folder. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Writes the stores in a child process (this file); `stop` kills it. Its peak RSS is reported. */
export function writeStoresInChild(job: StoreJob, onWritten: (path: string) => void = () => {}): StoreWriting {
  const child = fork(new URL(import.meta.url), [], { execArgv: ['--import', TSX], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'json' });
  let stopped = false;
  const done = new Promise<{ peak_rss_mb: number | null }>((resolve, reject) => {
    let peak: number | null = null, error: string | null = null;
    child.on('message', (m: Message) => {
      if ('written' in m) onWritten(m.written);
      else if ('done' in m) peak = m.peak_rss_mb;
      else error = m.error;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0 && peak !== null) resolve({ peak_rss_mb: peak });
      else if (stopped) reject(new Error('stopped before every building store was written'));
      else reject(new Error(`building stores: ${error ?? `the writing process ended (${signal ?? `exit code ${code}`})`}`));
    });
  });
  child.send(job);
  return { done, stop() { stopped = true; child.kill('SIGKILL'); } };
}

// The child: one job from the parent, its stores written in order, each reported once renamed in place.
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url && process.send) {
  // The server gone (killed), nobody will read the stores: stop.
  process.once('disconnect', () => process.exit(1));
  process.once('message', (job: StoreJob) => {
    const send = (m: Message) => new Promise<void>((r) => process.send!(m, () => r()));
    writeStoresHere(job, (path) => { void send({ written: path }); }).done.then(
      async () => { await send({ done: true, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) }); process.exit(0); },
      async (e: Error) => { await send({ error: e.message }); process.exit(1); },
    );
  });
}
