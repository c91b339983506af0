import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { filosofiSource } from '../../datasets/fr/filosofi/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import type { PartitionSummary } from '../core/job.ts';
import { UsageError, option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestFilosofi } from './filosofi.ts';

/**
 * The producer's names: by IRIS (BASE_TD_FILO_DISP_IRIS_2018, BASE_TD_FILO_DEC_IRIS_2018, and from
 * 2021 BASE_TD_FILO_IRIS_2021_DISP, BASE_TD_FILO_IRIS_2021_DEC), by commune (FILO2021_DISP_COM,
 * FILO2019_DISP_Pauvres_COM...).
 */
const FILES = /^(?:BASE_TD_FILO_(?:DISP|DEC)_IRIS_\d{4}|BASE_TD_FILO_IRIS_\d{4}_(?:DISP|DEC)|FILO\d{4}_DISP_(?:PAUVRES_)?COM).*\.csv$/i;
const SAMPLE = join(REPO_ROOT, 'datasets/fr/filosofi');

export const filosofiJob = defineJob({
  id: 'fr.filosofi',
  summary: 'INSEE Filosofi by IRIS (disposable income BASE_TD_FILO_DISP_IRIS_<year>.csv, declared income BASE_TD_FILO_DEC_IRIS_<year>.csv) and by commune (FILO<year>_DISP_COM.csv, FILO<year>_DISP_PAUVRES_COM.csv): median per consumption unit, quartiles, poverty rate -> fr/zone_values (one partition per edition and file, from the header)',
  sources: [filosofiSource],
  options: z.object({
    input: option.path('<BASE_TD_FILO_DISP_IRIS_YYYY.csv | BASE_TD_FILO_DEC_IRIS_YYYY.csv | FILOYYYY_DISP_COM.csv | FILOYYYY_DISP_PAUVRES_COM.csv | folder>'),
    'published-on': publishedOnOption,
  }),
  reads: [],
  writes: ['zone_values'],
  // One run per sample file: each is dated by its own first commit (the samples are ours, not INSEE's).
  samples: [
    ['--input', join(SAMPLE, 'BASE_TD_FILO_DISP_IRIS_2018.csv'), '--published-on', '2026-11-24'],
    ['--input', join(SAMPLE, 'BASE_TD_FILO_DEC_IRIS_2018.csv'), '--published-on', '2026-11-27'],
    ['--input', join(SAMPLE, 'FILO2021_DISP_COM.csv'), '--published-on', '2026-11-25'],
    ['--input', join(SAMPLE, 'FILO2021_DISP_PAUVRES_COM.csv'), '--published-on', '2026-11-25'],
  ],
  async run(ctx, o) {
    const files = statSync(o.input).isDirectory()
      ? readdirSync(o.input).filter((f) => FILES.test(f)).sort().map((f) => join(o.input, f))
      : [o.input];
    if (files.length === 0) throw new UsageError(`no Filosofi file (BASE_TD_FILO_DISP_IRIS_YYYY.csv, BASE_TD_FILO_DEC_IRIS_YYYY.csv, FILOYYYY_DISP_COM.csv, FILOYYYY_DISP_PAUVRES_COM.csv) in ${o.input}`);
    const out: PartitionSummary[] = [];
    for (const file of files) out.push(...await ingestFilosofi(ctx, { path: file, publishedAt: o['published-on'] }));
    return out;
  },
});
