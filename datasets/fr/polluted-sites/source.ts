import type { Source } from '../../source.ts';

/**
 * Polluted and potentially polluted sites of France as points: CASIAS/BASIAS former industrial and
 * service activities (BRGM for the ministry, Géorisques), BASOL contaminated land. The job reads
 * any CSV of such sites through column options (ingest/fr/polluted-sites.job.ts); its sample is
 * the layout of the ministry's Kelrisks team geocoded BASIAS export, not Géorisques' own layout.
 */
export const pollutedSitesSource: Source = {
  id: 'fr.polluted-sites',
  country: 'fr',
  name: 'Sites et sols pollués (CASIAS/BASIAS, BASOL)',
  producer: 'BRGM, Ministère de la Transition écologique',
  licence: 'Licence Ouverte / Open Licence',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'BRGM / MTE, inventaires CASIAS et BASOL (Géorisques)',
  url: 'https://www.georisques.gouv.fr/risques/sites-et-sols-pollues',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:4326 (latitude and longitude columns)',
  encoding: 'utf-8',
  update_frequency: 'irregular',
  tables: ['polluted_sites'],
  sample: 'datasets/fr/polluted-sites',
};

/** Category of a site in the points table: `polluted_site.<type>` (spec 2.10 types). */
export const pollutedSiteCategory = (type: string) => `polluted_site.${type}`;
