import { join } from 'node:path';
import { z } from 'zod';
import { protectedAreasSource } from '../../datasets/fr/protected-areas/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestProtectedAreas } from './protected-areas.ts';

export const protectedAreasJob = defineJob({
  id: 'fr.protected-areas',
  summary: "Heritage easements of the Géoportail de l'urbanisme (SUP assiettes, CNIG standard: assiette_sup_s GeoJSON of the GPU's WFS, or a shapefile in the CRS it declares): AC1 monuments and their abords, AC4 sites patrimoniaux remarquables -> fr/protected_areas (partition fr.protected-areas); other categories left out",
  sources: [protectedAreasSource],
  options: z.object({ input: option.path('<assiette_sup_s.geojson | AC1_ASSIETTE_SUP_S_*.shp | .zip>'), layer: z.string().optional().describe('<layer name in a zip or folder>') }),
  reads: [],
  writes: ['protected_areas', 'protected_areas_cells'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/protected-areas/assiette_sup_s.geojson')]],
  run: (ctx, o) => ingestProtectedAreas(ctx, { path: o.input, layer: o.layer }),
});
