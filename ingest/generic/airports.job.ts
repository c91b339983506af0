import { join } from 'node:path';
import { z } from 'zod';
import { AIRPORTS_SOURCES } from '../../datasets/ourairports/source.ts';
import { Country } from '../../schemas/common.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestAirports } from './airports.ts';

export const airportsJob = defineJob({
  id: 'airports',
  summary: "OurAirports' airports.csv (the world file or a country's) -> <country>/places as transport.airport: large and medium airports with scheduled service of the country (partition <cc>.airports)",
  sources: Object.values(AIRPORTS_SOURCES),
  options: z.object({ country: option.oneOf('country', Country), input: option.path('airports.csv') }),
  reads: [],
  writes: ['places'],
  samples: (['fr', 'ca', 'be'] as const).map((cc) => ['--input', join(REPO_ROOT, `datasets/${cc}/airports/airports.csv`), '--country', cc]),
  run: (ctx, o) => ingestAirports(ctx, o.country, { path: o.input }),
});
