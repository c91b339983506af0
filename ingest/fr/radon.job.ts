import { join } from 'node:path';
import { z } from 'zod';
import { radonSource } from '../../datasets/fr/radon/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestRadon } from './radon.ts';

export const radonJob = defineJob({
  id: 'fr.radon',
  summary: "IRSN radon potential by commune (radon.csv): category 1-3 per commune, Paris/Lyon/Marseille by arrondissement -> fr/zone_values (partition fr.radon)",
  sources: [radonSource],
  options: z.object({ input: option.path('<radon.csv>'), 'published-on': publishedOnOption }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/radon/radon.csv'), '--published-on', '2026-11-24']],
  run: (ctx, o) => ingestRadon(ctx, { path: o.input, publishedAt: o['published-on'] }),
});
