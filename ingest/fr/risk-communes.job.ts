import { join } from 'node:path';
import { z } from 'zod';
import { brushClearingSource, BRUSH_CLEARING_LAYER } from '../../datasets/fr/brush-clearing/source.ts';
import { gasparSource } from '../../datasets/fr/gaspar/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { ingestHazardPolygons, textOf, type HazardLayer } from '../core/hazard-polygons.ts';
import { option } from '../core/options.ts';
import { PUBLISHED_ON_HINT, publishedOnOption } from '../core/published-on.ts';
import { ingestGaspar } from './gaspar.ts';

/** Every OLD polygon is a zone under the obligation; its commune code kept when given. */
export const FR_BRUSH_CLEARING: HazardLayer = {
  country: 'fr', source: brushClearingSource, layer: BRUSH_CLEARING_LAYER, required: ['id_zone'], idAttribute: 'id_zone',
  classify: (p) => ({ attributes: { obligation: 'brush_clearing', commune: textOf(p.insee_com) || null } }),
};

/**
 * The commune-level legal information of France's risks (issue 15): the brush-clearing
 * obligation zones (`--brush-clearing`, OLD polygons) into fr/hazard_areas, and GASPAR's risks
 * known per commune (`--gaspar`, risq_gaspar.csv) into fr/zone_values. Each input is its own
 * partition: one replaces itself without touching the other.
 */
export const riskCommunesJob = defineJob({
  id: 'fr.risk-communes',
  summary: 'Brush-clearing obligation zones (OLD, GeoJSON or shapefile) -> fr/hazard_areas (layer brush_clearing, partition fr.brush-clearing); GASPAR risks per commune (risq_gaspar.csv) -> fr/zone_values (partition fr.gaspar)',
  sources: [brushClearingSource, gasparSource],
  options: z.object({
    'brush-clearing': option.path('<zonage_old.geojson | .shp | .zip>').optional(),
    layer: z.string().optional().describe('<layer name in a zip or folder>'),
    gaspar: option.path('<risq_gaspar.csv | ddrm_risq_gaspar_<date>.csv>').optional(),
    // GASPAR's risks are served with updated_on: its publication date (the file does not state it).
    'published-on': publishedOnOption.optional(),
  }).superRefine((o, c) => {
    if (o['brush-clearing'] === undefined && o.gaspar === undefined) c.addIssue({ code: 'custom', message: 'give --brush-clearing, --gaspar or both' });
    else if (o.gaspar !== undefined && o['published-on'] === undefined) c.addIssue({ code: 'custom', message: `--gaspar needs --published-on: ${PUBLISHED_ON_HINT}` });
  }),
  reads: [],
  writes: ['hazard_areas', 'hazard_areas_cells', 'zone_values'],
  samples: [
    ['--brush-clearing', join(REPO_ROOT, 'datasets/fr/brush-clearing/zonage_old.geojson')],
    ['--gaspar', join(REPO_ROOT, 'datasets/fr/gaspar/risq_gaspar.csv'), '--published-on', '2026-11-25'],
  ],
  run: async (ctx, o) => [
    ...(o['brush-clearing'] ? await ingestHazardPolygons(ctx, { path: o['brush-clearing'], layer: o.layer }, FR_BRUSH_CLEARING) : []),
    ...(o.gaspar ? await ingestGaspar(ctx, { path: o.gaspar, publishedAt: o['published-on'] }) : []),
  ],
});
