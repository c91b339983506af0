import { join } from 'node:path';
import { z } from 'zod';
import { Country } from '../../schemas/common.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestGtfs } from './gtfs.ts';

export const gtfsJob = defineJob({
  id: 'gtfs',
  summary: 'Any GTFS feed (zip or folder): stop points grouped under their parent station, lines from trips/stop_times/routes when published (else empty, said so), wheelchair boarding -> <country>/places (partition and source: gtfs.<agency ids>)',
  sources: [],
  options: z.object({ country: option.oneOf('country', Country), input: option.path('FEED.zip|FOLDER') }),
  reads: [],
  writes: ['places'],
  samples: [
    ['--input', join(REPO_ROOT, 'datasets/fr/gtfs/idfm'), '--country', 'fr'],
    ['--input', join(REPO_ROOT, 'datasets/ca/gtfs/stm'), '--country', 'ca'],
    ['--input', join(REPO_ROOT, 'datasets/ca/gtfs/exo'), '--country', 'ca'],
    ['--input', join(REPO_ROOT, 'datasets/be/gtfs/stib'), '--country', 'be'],
    ['--input', join(REPO_ROOT, 'datasets/be/gtfs/delijn'), '--country', 'be'],
    ['--input', join(REPO_ROOT, 'datasets/be/gtfs/sncb'), '--country', 'be'],
  ],
  run: (ctx, o) => ingestGtfs(ctx, { country: o.country, input: o.input }),
});
