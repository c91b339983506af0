import { join } from 'node:path';
import { z } from 'zod';
import { sisSource } from '../../datasets/fr/sis/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestSitePolygons } from '../core/site-polygons.ts';
import { FR_SIS } from './sis.ts';

export const sisJob = defineJob({
  id: 'fr.sis',
  summary: 'Soil information areas (SIS, Géorisques; GeoJSON or shapefile in the CRS it declares) -> fr/hazard_areas (layer soil_information_area) and fr/polluted_sites (area centres)',
  sources: [sisSource],
  options: z.object({ input: option.path('<sis.geojson | .shp | .zip>'), layer: z.string().optional().describe('<layer name in a zip or folder>') }),
  reads: [],
  writes: ['hazard_areas', 'hazard_areas_cells', 'polluted_sites'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/sis/sis.geojson')]],
  run: (ctx, o) => ingestSitePolygons(ctx, { path: o.input, layer: o.layer }, FR_SIS),
});
