import type { Source } from '../../source.ts';

/**
 * Statbel's building stock (cadastral statistics of the building stock, open data): per year,
 * REFNIS zone (country, regions, provinces, arrondissements, municipalities), statistic (T1
 * buildings, T3.x construction periods, ..., T8 dwellings) and building type (R1 closed, R2
 * semi-detached, R3 detached houses, R4 apartment buildings, R5 commercial houses, R6 others), from
 * the FPS Finance cadastre on 1 January. Read by the job be.census for housing.dwellings and
 * housing.houses_share (spec 2.11).
 */
export const buildingStockSource: Source = {
  id: 'be.building-stock',
  country: 'be',
  name: 'Parc des bâtiments / Gebouwenpark (building_stock_open_data)',
  producer: 'Statbel (Direction générale Statistique - Statistics Belgium), from the FPS Finance cadastre',
  licence: 'Licence open data Statbel (compatible CC BY 4.0)',
  licence_url: 'https://statbel.fgov.be/fr/propos-de-statbel/informations-legales/licence-open-data',
  attribution: 'Statbel, parc des bâtiments',
  url: 'https://statbel.fgov.be/fr/open-data',
  download_url: 'https://statbel.fgov.be/sites/default/files/files/opendata/Buildstock/building_stock_open_data_2025.zip',
  format: 'csv',
  crs: 'none (joined by REFNIS municipality code)',
  encoding: 'latin1',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/be/building-stock',
};
