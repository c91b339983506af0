import { join } from 'node:path';
import { z } from 'zod';
import { stationsSource } from '../../datasets/fr/stations/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestStations } from './stations.ts';

export const stationsJob = defineJob({
  id: 'fr.stations',
  summary: "SNCF's passenger stations (gares-de-voyageurs.csv, \"lat, lon\" positions) -> fr/places as transport.train_station (one partition, fr.stations)",
  sources: [stationsSource],
  options: z.object({ input: option.path('gares-de-voyageurs.csv') }),
  reads: [],
  writes: ['places'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/stations/gares-de-voyageurs.csv')]],
  run: (ctx, o) => ingestStations(ctx, { path: o.input }),
});
