import { join } from 'node:path';
import { z } from 'zod';
import { pollutedSitesSource } from '../../datasets/fr/polluted-sites/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestPollutedSites, POINT_SITE_TYPES, SITE_LAYOUTS, type PollutedSitesMapping } from './polluted-sites.ts';

const column = () => option.text('C').optional();

export const pollutedSitesJob = defineJob({
  id: 'fr.polluted-sites',
  summary: "Polluted sites as points (CSV): a producer's file by --layout (basol), or columns named as options (WGS84 or projected with --crs; a geocoded export with --score-column/--min-score) -> fr/polluted_sites (partition <type>.<file name>)",
  sources: [pollutedSitesSource],
  options: z.object({
    input: option.path('<sites.csv>'),
    layout: option.oneOf('layout', z.enum(Object.keys(SITE_LAYOUTS) as [keyof typeof SITE_LAYOUTS])).optional(),
    type: option.oneOf('type', z.enum(POINT_SITE_TYPES)).optional(),
    'id-column': column(), 'lat-column': column(), 'lng-column': column(), 'x-column': column(), 'y-column': column(),
    crs: option.text('EPSG:NNNN').optional(),
    'name-column': column(), 'address-column': column(), 'status-column': column(), 'updated-column': column(), 'score-column': column(),
    'min-score': z.string().regex(/^(0(\.\d+)?|1(\.0+)?)$/, { error: '--min-score must be a number from 0 to 1' }).optional().describe('<0-1>'),
  }).refine((o) => o.layout !== undefined || (o.type !== undefined && o['id-column'] !== undefined), { message: 'give --layout, or --type and --id-column with the position columns' }),
  reads: [],
  writes: ['polluted_sites'],
  samples: [
    // The Kelrisks team's geocoded BASIAS export: positions from the BAN geocoder, kept from score 0.5.
    ['--input', join(REPO_ROOT, 'datasets/fr/polluted-sites/basias.geocoded.csv'), '--type', 'former_industrial_activity', '--id-column', 'identifiant',
      '--lat-column', 'latitude', '--lng-column', 'longitude', '--address-column', 'adresse', '--score-column', 'result_score', '--min-score', '0.5'],
    // BASOL as Géorisques exported it: contaminated land, Lambert-93 positions.
    ['--input', join(REPO_ROOT, 'datasets/fr/polluted-sites/basol.csv'), '--layout', 'basol'],
  ],
  run: (ctx, o) => {
    const given: Partial<PollutedSitesMapping> = Object.fromEntries(Object.entries({
      type: o.type, id: o['id-column'], lat: o['lat-column'], lng: o['lng-column'], x: o['x-column'], y: o['y-column'], crs: o.crs,
      name: o['name-column'], address: o['address-column'], status: o['status-column'], updated: o['updated-column'], score: o['score-column'],
      minScore: o['min-score'] === undefined ? undefined : Number(o['min-score']),
    }).filter(([, v]) => v !== undefined));
    // A layout names the producer's columns; options given beside it override them.
    const mapping = { ...(o.layout ? SITE_LAYOUTS[o.layout] : {}), ...given } as PollutedSitesMapping;
    return ingestPollutedSites(ctx, { path: o.input }, mapping);
  },
});
