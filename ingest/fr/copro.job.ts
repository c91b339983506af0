import { join } from 'node:path';
import { z } from 'zod';
import { rnicSource } from '../../datasets/fr/copro/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestCopro } from './copro.ts';

export const coproJob = defineJob({
  id: 'fr.copro',
  summary: "ANAH's co-ownership registry (RNIC open-data CSV) attached to the buildings by parcel, diagnosis, address or position (sure or probable) -> fr/copro (partition rnic-<department>)",
  sources: [rnicSource],
  options: z.object({ input: option.path('<rnic CSV export>') }),
  // The attachment reads the buildings, their links, the BAN addresses and the diagnoses.
  reads: ['buildings', 'building_links', 'addresses', 'diagnoses'],
  writes: ['copro'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/copro/rnic-copro-sample.csv')]],
  run: (ctx, o) => ingestCopro(ctx, { path: o.input }),
});
