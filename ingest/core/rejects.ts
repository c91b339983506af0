import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Rows refused by a row schema, written as CSV (line;reason;raw) so a data engineer can fix the
 * source. The job fails when their share passes `maxShare`.
 */
export class Rejects {
  count = 0;
  private stream: WriteStream | null = null;
  readonly path: string;

  constructor(dataDir: string, country: string, table: string, partition: string, readonly maxShare: number) {
    this.path = join(dataDir, country, 'rejects', `${table}.${partition}.csv`);
  }

  async init(): Promise<void> {
    await rm(this.path, { force: true });
  }

  add(line: number, reason: string, raw: unknown): void {
    if (!this.stream) {
      // Opened on the first reject so a clean run leaves no file.
      mkdirSync(dirname(this.path), { recursive: true });
      this.stream = createWriteStream(this.path, { encoding: 'utf8' });
      this.stream.write('line;reason;raw\n');
    }
    this.count++;
    this.stream.write(`${line};${csvCell(reason)};${csvCell(JSON.stringify(raw))}\n`);
  }

  /** Throws when the share of rejected rows passes the limit. */
  check(total: number): void {
    if (total > 0 && this.count / total > this.maxShare) {
      throw new RejectShareError(this.count, total, this.maxShare, this.path);
    }
  }

  async close(): Promise<void> {
    const s = this.stream;
    if (!s) return;
    this.stream = null; // closing twice (a failure after close) is harmless
    await new Promise<void>((resolve, reject) => s.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}

export class RejectShareError extends Error {
  constructor(readonly rejected: number, readonly total: number, readonly maxShare: number, readonly file: string) {
    super(`${rejected} of ${total} rows rejected (${((100 * rejected) / total).toFixed(2)} %), over the allowed ${(100 * maxShare).toFixed(2)} %; see ${file}`);
  }
}

function csvCell(s: string): string {
  return /[;"\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

