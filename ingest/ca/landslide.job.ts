import { join } from 'node:path';
import { z } from 'zod';
import { landslideSource } from '../../datasets/ca/landslide/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { ingestHazardPolygons } from '../core/hazard-polygons.ts';
import { option } from '../core/options.ts';
import { CA_LANDSLIDE } from './hazard-zones.ts';

export const landslideJob = defineJob({
  id: 'ca.landslide',
  summary: `Quebec landslide constraint zones (every CLASSE of the map: present), GeoJSON or shapefile in the CRS it declares -> ca/hazard_areas (layer ${CA_LANDSLIDE.layer}, partition ca.landslide)`,
  sources: [landslideSource],
  options: z.object({ input: option.path('<zones_contraintes_glissements.geojson | .shp | .zip>'), layer: z.string().optional().describe('<layer name in a zip or folder>') }),
  reads: [],
  writes: ['hazard_areas', 'hazard_areas_cells'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/landslide/zones_contraintes_glissements.geojson')]],
  run: (ctx, o) => ingestHazardPolygons(ctx, { path: o.input, layer: o.layer }, CA_LANDSLIDE),
});
