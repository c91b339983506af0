import type { Source } from '../../source.ts';

/** SNCF's passenger stations (gares de voyageurs): one national file, one row per station. */
export const stationsSource: Source = {
  id: 'fr.stations',
  country: 'fr',
  name: 'Gares de voyageurs',
  producer: 'SNCF',
  licence: 'ODbL 1.0',
  licence_url: 'https://opendatacommons.org/licenses/odbl/1-0/',
  attribution: 'SNCF, Gares de voyageurs (data.sncf.com)',
  url: 'https://data.sncf.com/explore/dataset/gares-de-voyageurs/',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:4326',
  encoding: 'utf-8',
  update_frequency: 'irregular',
  tables: ['places'],
  sample: 'datasets/fr/stations',
};
