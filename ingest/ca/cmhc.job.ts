import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { cmhcSource } from '../../datasets/ca/cmhc/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import type { PartitionSummary } from '../core/job.ts';
import { UsageError, option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestCmhc } from './cmhc.ts';

export const cmhcJob = defineJob({
  id: 'ca.cmhc',
  summary: "CMHC Rental Market Survey HMIP CSV exports (average rents, vacancy rates by zone and bedroom type; Windows-1252) -> ca/zone_values of Quebec's rental-survey neighbourhoods",
  sources: [cmhcSource],
  options: z.object({ input: option.path('<HMIP export .csv | folder>'), encoding: option.text('<windows-1252>').optional(), 'published-on': publishedOnOption }),
  // Zones are matched by name to the rental-survey neighbourhoods already published.
  reads: ['zones'],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/cmhc'), '--published-on', '2026-11-24']],
  async run(ctx, o) {
    const files = statSync(o.input).isDirectory() ? readdirSync(o.input).filter((f) => /\.csv$/i.test(f)).sort().map((f) => join(o.input, f)) : [o.input];
    if (files.length === 0) throw new UsageError(`no .csv export in ${o.input}`);
    const out: PartitionSummary[] = [];
    for (const file of files) out.push(...await ingestCmhc(ctx, { path: file, encoding: o.encoding, publishedAt: o['published-on'] }));
    return out;
  },
});
