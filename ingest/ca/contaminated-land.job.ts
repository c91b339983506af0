import { join } from 'node:path';
import { z } from 'zod';
import { contaminatedLandSource } from '../../datasets/ca/contaminated-land/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestContaminatedLand } from './contaminated-land.ts';

export const contaminatedLandJob = defineJob({
  id: 'ca.contaminated-land',
  summary: 'Répertoire des terrains contaminés (GeoPackage: layer point, table detailsFiches) -> ca/polluted_sites (status from ETAT_REHAB, updated_on from DATE_CRE_MAJ)',
  sources: [contaminatedLandSource],
  options: z.object({ input: option.path('<RepertoireTerrainsContamines.gpkg>') }),
  reads: [],
  writes: ['polluted_sites'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/contaminated-land/RepertoireTerrainsContamines.gpkg')]],
  run: (ctx, o) => ingestContaminatedLand(ctx, { path: o.input }),
});
