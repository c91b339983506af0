import { readFile, rm, writeFile } from 'node:fs/promises';
import { isAlive } from './table-writer.ts';

/**
 * Runs `fn` holding a lock file (created exclusively, holding the pid): what two runs read,
 * change and write (the manifest, the id registry of a kind), whether two processes ingesting
 * departments side by side or two jobs of one process, never crosses, so neither loses the
 * other's changes. A lock whose process is dead (killed while writing) is taken over.
 */
export async function withLockFile<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
      // An empty file is a lock being taken this instant: wait as for a live one.
      if (holder > 0 && !isAlive(holder)) { await rm(lock, { force: true }); continue; }
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  try { return await fn(); } finally { await rm(lock, { force: true }); }
}
