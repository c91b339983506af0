import { basename } from 'node:path';

/**
 * Progress of a job: a bar with rows/s on a terminal, a plain log line every few seconds
 * otherwise (CI, cron, redirected output). Written to stderr so stdout stays for summaries.
 */
export interface Progress {
  /** Rows so far, and bytes read of the input (with its size when the reader learns it only as it goes). */
  tick(rows: number, bytesRead?: number, totalBytes?: number): void;
  done(): void;
}

export function createProgress(label: string, totalBytes: number | null, out: NodeJS.WriteStream = process.stderr, now = () => Date.now()): Progress {
  const tty = Boolean(out.isTTY);
  const start = now();
  let last = start;
  let rows = 0;
  let bytes = 0;
  const interval = tty ? 200 : 5000;
  const render = (final: boolean) => {
    const secs = Math.max((now() - start) / 1000, 1e-3);
    const rate = Math.round(rows / secs);
    const share = totalBytes && bytes ? Math.min(bytes / totalBytes, 1) : null;
    // Remaining time from the share of bytes read so far, once there is enough to extrapolate.
    const eta = !final && share !== null && share > 0.01 && share < 1 ? ` ~${formatDuration(secs * (1 - share) / share)} left` : '';
    if (tty) {
      const width = 30;
      const filled = share === null ? 0 : Math.round(share * width);
      const bar = share === null ? '' : `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}% `;
      out.write(`\r${label} ${bar}${rows.toLocaleString('en')} rows ${rate.toLocaleString('en')} rows/s${eta}${final ? '\n' : ''}`);
    } else {
      out.write(`${label}: ${rows} rows, ${rate} rows/s${share === null ? '' : `, ${(share * 100).toFixed(1)}%`}${eta}${final ? ', done' : ''}\n`);
    }
  };
  return {
    tick(n, b, total) {
      rows = n;
      if (b !== undefined) bytes = b;
      if (total !== undefined && total > 0) totalBytes = total;
      const t = now();
      if (t - last >= interval) { last = t; render(false); }
    },
    // Done means every byte read, whatever the last tick saw.
    done() { if (totalBytes) bytes = totalBytes; render(true); },
  };
}

/** 75 -> "1 min 15 s", 4000 -> "1 h 06 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** What withProgress reads: a DuckDB connection's progress of its running query. */
interface QueryProgress { progress: { percentage: number; rows_processed: bigint | number } }

/**
 * Ticks `progress` from DuckDB's own progress while a query runs (set `enable_progress_bar =
 * true` on the connection first): its percentage of the work, carried onto the file's bytes,
 * gives the bar its share and the remaining time. For the jobs where DuckDB reads the file.
 */
export async function withProgress<T>(c: QueryProgress, progress: Progress, run: () => Promise<T>, totalBytes = 0): Promise<T> {
  const poll = setInterval(() => {
    const p = c.progress;
    if (p.percentage >= 0) progress.tick(Number(p.rows_processed), totalBytes > 0 ? Math.round((p.percentage / 100) * totalBytes) : undefined);
  }, 250);
  try { return await run(); } finally { clearInterval(poll); }
}

/** The readers' `progress` option for a job reading a file: labelled `<job> <file name>`, on the job's progress output. */
export function fileProgress(ctx: { progressOut?: NodeJS.WriteStream }, job: string, path: string): { label: string; out?: NodeJS.WriteStream } {
  return { label: `${job} ${basename(path)}`, out: ctx.progressOut };
}
