import { join } from 'node:path';
import { z } from 'zod';
import { floodZonesSource } from '../../datasets/ca/flood-zones/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { ingestHazardPolygons } from '../core/hazard-polygons.ts';
import { option } from '../core/options.ts';
import { CA_FLOOD } from './hazard-zones.ts';

export const floodZonesJob = defineJob({
  id: 'ca.flood-zones',
  summary: `Quebec flood zones by return period (TYPE_ZONE 0-20 ans -> high, 20-100 ans -> moderate), GeoJSON or shapefile in the CRS it declares -> ca/hazard_areas (layer ${CA_FLOOD.layer}, partition ca.flood-zones)`,
  sources: [floodZonesSource],
  options: z.object({ input: option.path('<zones_inondables.geojson | .shp | .zip>'), layer: z.string().optional().describe('<layer name in a zip or folder>') }),
  reads: [],
  writes: ['hazard_areas', 'hazard_areas_cells'],
  samples: [['--input', join(REPO_ROOT, 'datasets/ca/flood-zones/zones_inondables.geojson')]],
  run: (ctx, o) => ingestHazardPolygons(ctx, { path: o.input, layer: o.layer }, CA_FLOOD),
});
