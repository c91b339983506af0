import { join } from 'node:path';
import { z } from 'zod';
import { brushClearingSource, BRUSH_CLEARING_LAYER } from '../../datasets/fr/brush-clearing/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { ingestHazardPolygons, textOf, type HazardLayer } from '../core/hazard-polygons.ts';
import { option } from '../core/options.ts';

/** Every OLD polygon is a zone under the obligation; its commune code kept when given. */
export const FR_BRUSH_CLEARING: HazardLayer = {
  country: 'fr', source: brushClearingSource, layer: BRUSH_CLEARING_LAYER, required: ['id_zone'], idAttribute: 'id_zone',
  classify: (p) => ({ attributes: { obligation: 'brush_clearing', commune: textOf(p.insee_com) || null } }),
};

/**
 * The commune-level legal information of France's risks (issue 15). Today: the brush-clearing
 * obligation zones (`--brush-clearing`, OLD polygons) into fr/hazard_areas. GASPAR's risks per
 * commune are not read yet (docs/status.md).
 */
export const riskCommunesJob = defineJob({
  id: 'fr.risk-communes',
  summary: 'Brush-clearing obligation zones (OLD, GeoJSON or shapefile in the CRS it declares) -> fr/hazard_areas (layer brush_clearing, partition fr.brush-clearing); GASPAR not read yet',
  sources: [brushClearingSource],
  options: z.object({ 'brush-clearing': option.path('<zonage_old.geojson | .shp | .zip>'), layer: z.string().optional().describe('<layer name in a zip or folder>') }),
  reads: [],
  writes: ['hazard_areas', 'hazard_areas_cells'],
  samples: [['--brush-clearing', join(REPO_ROOT, 'datasets/fr/brush-clearing/zonage_old.geojson')]],
  run: (ctx, o) => ingestHazardPolygons(ctx, { path: o['brush-clearing'], layer: o.layer }, FR_BRUSH_CLEARING),
});
