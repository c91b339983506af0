import { join } from 'node:path';
import { z } from 'zod';
import { coastalErosionSource } from '../../datasets/ca/coastal-erosion/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { ingestHazardPolygons } from '../core/hazard-polygons.ts';
import { option } from '../core/options.ts';
import { CA_COASTAL_EROSION } from './hazard-zones.ts';

export const coastalErosionJob = defineJob({
  id: 'ca.coastal-erosion',
  summary: `Quebec coastal erosion constraint zones (present), GeoJSON or shapefile in the CRS it declares -> ca/hazard_areas (layer ${CA_COASTAL_EROSION.layer}, partition ca.coastal-erosion)`,
  sources: [coastalErosionSource],
  options: z.object({ input: option.path('<zones_contraintes_erosion_cotiere.geojson | .shp | .zip>'), layer: z.string().optional().describe('<layer name in a zip or folder>') }),
  reads: [],
  writes: ['hazard_areas', 'hazard_areas_cells'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/coastal-erosion/zones_contraintes_erosion_cotiere.geojson')]],
  run: (ctx, o) => ingestHazardPolygons(ctx, { path: o.input, layer: o.layer }, CA_COASTAL_EROSION),
});
