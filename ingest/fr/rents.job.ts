import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { rentsSource } from '../../datasets/fr/rents/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import type { PartitionSummary } from '../core/job.ts';
import { UsageError, option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestRents, RENT_TYPES, rentTypeOfName, type RentType } from './rents.ts';

export const rentsJob = defineJob({
  id: 'fr.rents',
  summary: 'ANIL / DHUP rent map (pred-app, pred-mai, pred-app12, pred-app3-mef-dhup.csv): predicted rent per m² by commune with its interval -> fr/zone_values (one partition per type and edition)',
  sources: [rentsSource],
  options: z.object({
    input: option.path('<pred-*-mef-dhup.csv | folder>'),
    year: z.string().regex(/^20\d\d$/, { error: '--year must be the edition year, e.g. 2023 (the file does not say it)' }).describe('<YYYY>'),
    type: z.enum(RENT_TYPES, { error: () => `--type must be one of ${RENT_TYPES.join(', ')}` }).optional().describe(`<${RENT_TYPES.join('|')}>`),
    encoding: option.text('<utf-8|latin1>').optional(),
    'published-on': publishedOnOption,
  }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/rents'), '--year', '2023', '--published-on', '2026-11-24']],
  async run(ctx, o) {
    const files = statSync(o.input).isDirectory()
      ? readdirSync(o.input).filter((f) => rentTypeOfName(f) !== null).sort().map((f) => join(o.input, f))
      : [o.input];
    if (files.length === 0) throw new UsageError(`no pred-*-mef-dhup.csv file in ${o.input}`);
    const out: PartitionSummary[] = [];
    for (const file of files) {
      const type: RentType | null = o.type ?? rentTypeOfName(file);
      if (!type) throw new UsageError(`${file}: the property type is not in the producer's file name (pred-app, pred-mai, pred-app12, pred-app3); give --type`);
      out.push(...await ingestRents(ctx, { path: file, type, year: Number(o.year), encoding: o.encoding, publishedAt: o['published-on'] }));
    }
    return out;
  },
});
