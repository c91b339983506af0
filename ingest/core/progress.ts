/**
 * Progress of a job: a bar with rows/s on a terminal, a plain log line every few seconds
 * otherwise (CI, cron, redirected output). Written to stderr so stdout stays for summaries.
 */
export interface Progress {
  tick(rows: number, bytesRead?: number): void;
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
    if (tty) {
      const width = 30;
      const filled = share === null ? 0 : Math.round(share * width);
      const bar = share === null ? '' : `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}% `;
      out.write(`\r${label} ${bar}${rows.toLocaleString('en')} rows ${rate.toLocaleString('en')} rows/s${final ? '\n' : ''}`);
    } else {
      out.write(`${label}: ${rows} rows, ${rate} rows/s${share === null ? '' : `, ${(share * 100).toFixed(1)}%`}${final ? ', done' : ''}\n`);
    }
  };
  return {
    tick(n, b) {
      rows = n;
      if (b !== undefined) bytes = b;
      const t = now();
      if (t - last >= interval) { last = t; render(false); }
    },
    done() { render(true); },
  };
}
