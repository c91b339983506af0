import { join } from 'node:path';
import { z } from 'zod';
import { dpeSource } from '../../datasets/fr/dpe/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestDpe } from './dpe.ts';

export const dpeJob = defineJob({
  id: 'fr.dpe',
  summary: "ADEME's DPE v2 export (logements existants or neufs, CSV with BOM, Lambert-93 BAN coordinates): one diagnosis per N°DPE with its event id -> fr/diagnoses (partition <scheme>-<department>), fr/id_registry (evt)",
  sources: [dpeSource],
  options: z.object({ input: option.path('<dpe-v2-logements-*.csv>') }),
  reads: [],
  writes: ['diagnoses', 'id_registry', 'id_merges'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/dpe/dpe-v2-logements-existants-sample.csv')]],
  run: (ctx, o) => ingestDpe(ctx, { path: o.input }),
});
