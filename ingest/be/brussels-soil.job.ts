import { join } from 'node:path';
import { z } from 'zod';
import { brusselsSoilSource } from '../../datasets/be/brussels-soil/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestBrusselsSoil } from './brussels-risks.ts';

export const brusselsSoilJob = defineJob({
  id: 'be.brussels-soil',
  summary: "Bruxelles Environnement's soil-status inventory (parcels by CATEGORIE 0-4; category 1 alone never kept) -> be/hazard_areas (layer soil_status) and be/polluted_sites (centre of each parcel)",
  sources: [brusselsSoilSource],
  options: z.object({ input: option.path('<inventaire_etat_sol.geojson | .shp | .zip>'), layer: z.string().optional().describe('<layer name in a zip or folder>') }),
  reads: [],
  writes: ['hazard_areas', 'hazard_areas_cells', 'polluted_sites'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/brussels-soil/inventaire_etat_sol.geojson')]],
  run: (ctx, o) => ingestBrusselsSoil(ctx, { path: o.input, layer: o.layer }),
});
