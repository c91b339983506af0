import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { balSource } from '../../datasets/fr/bal/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import type { PartitionSummary } from '../core/job.ts';
import { UsageError, option } from '../core/options.ts';
import { ingestBanFile } from './ban.ts';
import { BAL_FORMAT } from './bal.ts';

function balFiles(input: string): string[] {
  if (!statSync(input).isDirectory()) return [input];
  const files = readdirSync(input).filter((f) => /\.csv$/i.test(f)).sort().map((f) => join(input, f));
  if (files.length === 0) throw new UsageError(`no .csv file in ${input}`);
  return files;
}

export const balJob = defineJob({
  id: 'fr.bal',
  summary: 'Base Adresse Locale of communes (BAL 1.3 / 1.4 CSV) -> fr/addresses, replacing the addresses of the communes it holds in their department\'s partition',
  sources: [balSource],
  options: z.object({ input: option.path('<bal.csv | folder>') }),
  reads: [],
  writes: ['addresses'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/bal')]],
  async run(ctx, o) {
    const out: PartitionSummary[] = [];
    for (const file of balFiles(o.input)) out.push(...await ingestBanFile(ctx, { path: file }, BAL_FORMAT));
    return out;
  },
});
