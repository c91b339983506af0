import { join } from 'node:path';
import { z } from 'zod';
import { pollutedSitesSource } from '../../datasets/fr/polluted-sites/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestPollutedSites, POINT_SITE_TYPES } from './polluted-sites.ts';

const column = () => option.text('C').optional();

export const pollutedSitesJob = defineJob({
  id: 'fr.polluted-sites',
  summary: 'Polluted sites as points (CSV, columns named as options; a geocoded export with --score-column/--min-score) -> fr/polluted_sites (partition <type>.<file name>)',
  sources: [pollutedSitesSource],
  options: z.object({
    input: option.path('<sites.csv>'),
    type: option.oneOf('type', z.enum(POINT_SITE_TYPES)),
    'id-column': option.text('C'), 'lat-column': option.text('C'), 'lng-column': option.text('C'),
    'name-column': column(), 'address-column': column(), 'status-column': column(), 'updated-column': column(), 'score-column': column(),
    'min-score': z.string().regex(/^(0(\.\d+)?|1(\.0+)?)$/, { error: '--min-score must be a number from 0 to 1' }).optional().describe('<0-1>'),
  }),
  reads: [],
  writes: ['polluted_sites'],
  // The Kelrisks team's geocoded BASIAS export: positions from the BAN geocoder, kept from score 0.5.
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/polluted-sites/basias.geocoded.csv'), '--type', 'former_industrial_activity', '--id-column', 'identifiant',
    '--lat-column', 'latitude', '--lng-column', 'longitude', '--address-column', 'adresse', '--score-column', 'result_score', '--min-score', '0.5']],
  run: (ctx, o) => ingestPollutedSites(ctx, { path: o.input }, {
    type: o.type, id: o['id-column'], lat: o['lat-column'], lng: o['lng-column'], name: o['name-column'], address: o['address-column'],
    status: o['status-column'], updated: o['updated-column'], score: o['score-column'], minScore: o['min-score'] === undefined ? undefined : Number(o['min-score']),
  }),
});
