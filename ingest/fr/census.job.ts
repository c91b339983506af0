import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { censusSource } from '../../datasets/fr/census/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import type { PartitionSummary } from '../core/job.ts';
import { UsageError, option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestCensus } from './census.ts';

const FILES = /^base-ic-(logement|couples-familles-menages)-\d{4}.*\.csv$/i;

export const censusJob = defineJob({
  id: 'fr.census',
  summary: 'INSEE census by IRIS (base-ic-logement-<year>.csv, base-ic-couples-familles-menages-<year>.csv): dwellings, houses, owner-occupiers and social housing shares, households -> fr/zone_values (one partition per edition and file kind, from the header)',
  sources: [censusSource],
  options: z.object({ input: option.path('<base-ic-*.csv | folder>'), 'published-on': publishedOnOption }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/census'), '--published-on', '2026-11-24']],
  async run(ctx, o) {
    const files = statSync(o.input).isDirectory()
      ? readdirSync(o.input).filter((f) => FILES.test(f)).sort().map((f) => join(o.input, f))
      : [o.input];
    if (files.length === 0) throw new UsageError(`no base-ic-logement-YYYY.csv or base-ic-couples-familles-menages-YYYY.csv file in ${o.input}`);
    const out: PartitionSummary[] = [];
    for (const file of files) out.push(...await ingestCensus(ctx, { path: file, publishedAt: o['published-on'] }));
    return out;
  },
});
