import type { Source } from '../../source.ts';

/** Statistics Canada's Census Profile by forward sortation area (98-401-X2021013), one file for Canada, Latin-1. */
export const caCensusSource: Source = {
  id: 'ca.census',
  country: 'ca',
  name: 'Census Profile, 2021 Census of Population: forward sortation areas (98-401-X2021013)',
  producer: 'Statistics Canada',
  licence: 'Statistics Canada Open Licence',
  licence_url: 'https://www.statcan.gc.ca/en/reference/licence',
  attribution: 'Statistics Canada, Census Profile, 2021 Census of Population',
  url: 'https://www12.statcan.gc.ca/census-recensement/2021/dp-pd/prof/details/download-telecharger.cfm',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by forward sortation area)',
  encoding: 'latin1 (ISO-8859-1)',
  update_frequency: 'irregular',
  tables: ['zone_values'],
  sample: 'datasets/ca/census',
};
