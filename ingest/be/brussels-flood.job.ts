import { join } from 'node:path';
import { z } from 'zod';
import { brusselsFloodSource } from '../../datasets/be/brussels-flood/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { ingestHazardPolygons } from '../core/hazard-polygons.ts';
import { option } from '../core/options.ts';
import { BE_FLOOD } from './brussels-risks.ts';

export const brusselsFloodJob = defineJob({
  id: 'be.brussels-flood',
  summary: `Bruxelles Environnement's flood hazard map (ALEA_FR faible, moyen, élevé -> low, moderate, high), GeoJSON or shapefile in the CRS it declares -> be/hazard_areas (layer ${BE_FLOOD.layer}, partition be.brussels-flood)`,
  sources: [brusselsFloodSource],
  options: z.object({ input: option.path('<alea_inondation.geojson | .shp | .zip>'), layer: z.string().optional().describe('<layer name in a zip or folder>') }),
  reads: [],
  writes: ['hazard_areas', 'hazard_areas_cells'],
  samples: [['--input', join(REPO_ROOT, 'datasets/be/brussels-flood/alea_inondation.geojson')]],
  run: (ctx, o) => ingestHazardPolygons(ctx, { path: o.input, layer: o.layer }, BE_FLOOD),
});
