import type { Source } from '../../source.ts';

export const statbelSectorsSource: Source = {
  id: 'be.statbel-sectors',
  country: 'be',
  name: 'Secteurs statistiques / Statistische sectoren (régions, provinces, arrondissements, communes, sections, secteurs)',
  producer: 'Statbel (Direction générale Statistique - Statistics Belgium)',
  licence: 'Licence open data Statbel (compatible CC BY 4.0)',
  licence_url: 'https://statbel.fgov.be/fr/propos-de-statbel/informations-legales/licence-open-data',
  attribution: 'Statbel, secteurs statistiques',
  url: 'https://statbel.fgov.be/fr/open-data/secteurs-statistiques-2024',
  download_url: null,
  format: 'geojson',
  crs: 'EPSG:31370 (Lambert 72) or EPSG:3812 (Lambert 2008), as published',
  encoding: 'utf-8',
  update_frequency: 'yearly',
  tables: ['zones', 'zone_cells'],
  sample: 'datasets/be/statbel-sectors',
};

export const refnisSource: Source = {
  id: 'be.refnis',
  country: 'be',
  name: 'Codes REFNIS / NIS-codes (régions, provinces, arrondissements, communes)',
  producer: 'Statbel',
  licence: 'Licence open data Statbel (compatible CC BY 4.0)',
  licence_url: 'https://statbel.fgov.be/fr/propos-de-statbel/informations-legales/licence-open-data',
  attribution: 'Statbel, codes REFNIS',
  url: 'https://statbel.fgov.be/fr/propos-de-statbel/methodologie/classifications/geographie',
  download_url: null,
  format: 'csv',
  crs: 'none',
  encoding: 'latin1',
  update_frequency: 'yearly',
  tables: ['zones'],
  sample: 'datasets/be/statbel-sectors',
};
