import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { bestSource } from '../../datasets/be/best/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import type { PartitionSummary } from '../core/job.ts';
import { UsageError, option } from '../core/options.ts';
import { ingestBestFile } from './best.ts';

export const bestJob = defineJob({
  id: 'be.best',
  summary: 'BeST Address per region (openaddress-bebru/bevlg/bewal.csv; street and municipality names in French, Dutch and German) -> be/addresses',
  sources: [bestSource],
  options: z.object({ input: option.path('<openaddress-beXXX.csv | folder>') }),
  reads: [],
  writes: ['addresses'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/best')]],
  async run(ctx, o) {
    const files = statSync(o.input).isDirectory()
      ? readdirSync(o.input).filter((f) => /^openaddress-be.+\.csv(\.gz)?$/i.test(f)).sort().map((f) => join(o.input, f))
      : [o.input];
    if (files.length === 0) throw new UsageError(`no openaddress-beXXX.csv file in ${o.input}`);
    const out: PartitionSummary[] = [];
    for (const file of files) out.push(...await ingestBestFile(ctx, { path: file }));
    return out;
  },
});
