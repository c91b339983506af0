import { join } from 'node:path';
import { z } from 'zod';
import { claySource } from '../../datasets/fr/clay/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestClay } from './clay.ts';

export const clayJob = defineJob({
  id: 'fr.clay',
  summary: "BRGM clay shrink-swell exposure polygons (ExpoArgile_*_L93, GeoJSON or shapefile): NIVEAU 1-3 -> fr/hazard_areas (layer clay_shrink_swell, partition fr.clay; a departmental file with --department DD: partition fr.clay-DD, served instead of the national layer in that department)",
  sources: [claySource],
  options: z.object({ input: option.path('<ExpoArgile_Fxx_L93.geojson | .shp | .zip>'), layer: z.string().optional().describe('<layer name in a zip or folder>'),
    department: z.string().optional().describe("<DD> the department a departmental file covers (01-95, 2A, 2B): its polygons replace the national layer's there") }),
  reads: [],
  writes: ['hazard_areas', 'hazard_areas_cells'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/clay/ExpoArgile_Fxx_L93.geojson')]],
  run: (ctx, o) => ingestClay(ctx, { path: o.input, layer: o.layer, department: o.department }),
});
