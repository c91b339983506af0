import type { Source } from '../../source.ts';

/**
 * Statbel's real-estate sales by municipality (open data, pipe-separated): number of sales and
 * price quartiles per property type, year and period (Y, semesters, quarters), from the deeds
 * registered by FPS Finance.
 */
export const statbelPricesSource: Source = {
  id: 'be.statbel-prices',
  country: 'be',
  name: 'Ventes de biens immobiliers par commune / Verkoop van onroerende goederen per gemeente',
  producer: 'Statbel (Direction générale Statistique - Statistics Belgium), from FPS Finance deeds',
  licence: 'Licence open data Statbel (compatible CC BY 4.0)',
  licence_url: 'https://statbel.fgov.be/fr/propos-de-statbel/informations-legales/licence-open-data',
  attribution: 'Statbel, prix de l’immobilier',
  url: 'https://statbel.fgov.be/fr/open-data/ventes-de-biens-immobiliers-par-commune',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by REFNIS municipality code)',
  encoding: 'utf-8 (with BOM)',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/be/statbel-prices',
};

/**
 * Statbel's real-estate sales by statistical sector (TF_IMMO_SECTOR, open data): number of sales
 * and price percentiles (P10, P25, median, P75, P90) per sector, year and property type, from the
 * same deeds; percentiles withheld under 16 valid prices.
 */
export const statbelPriceSectorsSource: Source = {
  id: 'be.statbel-prices-sectors',
  country: 'be',
  name: 'Ventes de biens immobiliers par secteur statistique / Verkoop van onroerende goederen per statistische sector',
  producer: 'Statbel (Direction générale Statistique - Statistics Belgium), from FPS Finance deeds',
  licence: 'Licence open data Statbel (compatible CC BY 4.0)',
  licence_url: 'https://statbel.fgov.be/fr/propos-de-statbel/informations-legales/licence-open-data',
  attribution: 'Statbel, prix de l’immobilier par secteur statistique',
  url: 'https://statbel.fgov.be/en/open-data/real-estate-sales-according-nature-property-deed-sale-statistical-sectors-nis7-and-nis9',
  download_url: 'https://statbel.fgov.be/sites/default/files/files/opendata/Immo%20sector/TF_IMMO_SECTOR.zip',
  format: 'csv',
  crs: 'none (joined by statistical sector code)',
  encoding: 'utf-8 (unchecked)',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/be/statbel-prices',
};
