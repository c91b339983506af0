import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import type { PartitionSummary } from '../../ingest/core/job.ts';
import { runSamples } from '../../ingest/jobs.ts';
import { silentContext } from './fixture-data.ts';

/**
 * A data folder of its own holding every committed sample, ingested by the real jobs as
 * `npm start` does (`runSamples`), and the summary of that ingest.
 *
 * The samples are ingested once per test run: the first file to ask takes a lock (an atomic
 * mkdir) and ingests into the run's template folder, the others wait for it; each caller then
 * gets a copy, so a test may ingest more into its folder without touching another file's.
 */
export async function samplesDataDir(prefix = 'lds-samples-'): Promise<{ dataDir: string; parts: PartitionSummary[]; progress: string }> {
  const root = inject('samplesRoot');
  const template = join(root, 'data');
  const done = join(root, 'parts.json');
  const failed = join(root, 'failed.txt');
  let mine = false;
  try { await mkdir(join(root, 'lock')); mine = true; } catch { /* another file ingests them */ }
  if (mine) {
    try {
      // The jobs' progress lines (off a terminal: plain lines) are kept for the CLI's tests.
      const lines: string[] = [];
      const progressOut = { isTTY: false, write: (l: string) => { lines.push(l); return true; } } as unknown as NodeJS.WriteStream;
      const parts = await runSamples({ ...silentContext(template), progressOut });
      await writeFile(join(root, 'progress.txt'), lines.join(''));
      await writeFile(done, JSON.stringify(parts));
    } catch (err) {
      await writeFile(failed, String((err as Error).stack ?? err));
      throw err;
    }
  } else {
    while (!existsSync(done)) {
      if (existsSync(failed)) throw new Error(`ingesting the samples failed in another test file:\n${await readFile(failed, 'utf8')}`);
      await sleep(100);
    }
  }
  const dataDir = join(await mkdtemp(join(tmpdir(), prefix)), 'data');
  await cp(template, dataDir, { recursive: true });
  return { dataDir, parts: JSON.parse(await readFile(done, 'utf8')) as PartitionSummary[], progress: await readFile(join(root, 'progress.txt'), 'utf8') };
}
