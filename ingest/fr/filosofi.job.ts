import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { filosofiSource } from '../../datasets/fr/filosofi/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import type { PartitionSummary } from '../core/job.ts';
import { UsageError, option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestFilosofi } from './filosofi.ts';

export const filosofiJob = defineJob({
  id: 'fr.filosofi',
  summary: 'INSEE Filosofi disposable income by IRIS (BASE_TD_FILO_DISP_IRIS_<year>.csv): median per consumption unit, quartiles, poverty rate -> fr/zone_values (one partition per edition, from the header)',
  sources: [filosofiSource],
  options: z.object({ input: option.path('<BASE_TD_FILO_DISP_IRIS_YYYY.csv | folder>'), 'published-on': publishedOnOption.optional() }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/filosofi')]],
  async run(ctx, o) {
    const files = statSync(o.input).isDirectory()
      ? readdirSync(o.input).filter((f) => /^BASE_TD_FILO_DISP_IRIS_\d{4}.*\.csv$/i.test(f)).sort().map((f) => join(o.input, f))
      : [o.input];
    if (files.length === 0) throw new UsageError(`no BASE_TD_FILO_DISP_IRIS_YYYY.csv file in ${o.input}`);
    const out: PartitionSummary[] = [];
    for (const file of files) out.push(...await ingestFilosofi(ctx, { path: file, publishedOn: o['published-on'] ?? null }));
    return out;
  },
});
