import { join } from 'node:path';
import { z } from 'zod';
import { cadastreSource } from '../../datasets/fr/cadastre/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestCadastre } from './cadastre.ts';

const SAMPLES = ['75103', '75104', '75111', '75112', '75113', '33001'];

export const cadastreJob = defineJob({
  id: 'fr.cadastre',
  summary: "Etalab's cadastre parcels per commune (cadastre-<insee>-parcelles.json[.gz]): id, reference, contenance -> fr/parcels (areas, partition cadastre-<commune>)",
  sources: [cadastreSource],
  options: z.object({ input: option.path('<cadastre-<insee>-parcelles.json[.gz]>') }),
  reads: [],
  writes: ['parcels', 'parcels_cells'],
  samples: SAMPLES.map((c) => ['--input', join(REPO_ROOT, `datasets/fr/cadastre/cadastre-${c}-parcelles.json${c === '33001' ? '.gz' : ''}`)]),
  run: (ctx, o) => ingestCadastre(ctx, { path: o.input }),
});
