import { join } from 'node:path';
import { z } from 'zod';
import { OSM_SOURCES } from '../../datasets/osm/source.ts';
import { Country } from '../../schemas/common.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestMotorwayJunctions } from './osm-motorway-junctions.ts';

export const osmMotorwayJunctionsJob = defineJob({
  id: 'osm-motorway-junctions',
  summary: 'An OpenStreetMap extract (.osm.pbf): highway=motorway_junction nodes, the carriageways of one exit grouped -> <country>/places as transport.highway_access (partition <cc>.osm-motorway-junctions, source <cc>.osm, ODbL)',
  sources: Object.values(OSM_SOURCES),
  options: z.object({ country: option.oneOf('country', Country), input: option.path('EXTRACT.osm.pbf') }),
  reads: [],
  writes: ['places'],
  samples: (['fr', 'ca', 'be'] as const).map((cc) => ['--input', join(REPO_ROOT, `datasets/${cc}/osm/motorway-junctions.osm.pbf`), '--country', cc]),
  run: (ctx, o) => ingestMotorwayJunctions(ctx, o.country, { path: o.input }),
});
