import type { Source } from '../../source.ts';

/** Statbel's fiscal income statistics by municipality (TF_PSNL_INC_TAX_MUNTY): totals and counts of returns per income year. */
export const statbelIncomeSource: Source = {
  id: 'be.statbel-income',
  country: 'be',
  name: 'Statistiques fiscales des revenus par commune / Fiscale inkomens per gemeente (TF_PSNL_INC_TAX_MUNTY)',
  producer: 'Statbel (Direction générale Statistique - Statistics Belgium), from SPF Finances tax data',
  licence: 'Licence open data Statbel (compatible CC BY 4.0)',
  licence_url: 'https://statbel.fgov.be/fr/propos-de-statbel/informations-legales/licence-open-data',
  attribution: 'Statbel, statistiques fiscales des revenus',
  url: 'https://statbel.fgov.be/fr/open-data/statistiques-fiscales-des-revenus-par-commune',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by REFNIS municipality code)',
  encoding: 'utf-8 (with BOM)',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/be/statbel-income',
};

/**
 * Statbel's fiscal income statistics by statistical sector (TF_PSNL_INC_TAX_SECTOR, in the zip of
 * the same name: pipe-separated text): returns with a non-zero income, total, mean and median net
 * taxable income per return and interquartile figures per sector and income year; cells of small
 * sectors withheld (`C`).
 */
export const statbelIncomeSectorsSource: Source = {
  id: 'be.statbel-income-sectors',
  country: 'be',
  name: 'Statistiques fiscales des revenus par secteur statistique / Fiscale inkomens per statistische sector (TF_PSNL_INC_TAX_SECTOR)',
  producer: 'Statbel (Direction générale Statistique - Statistics Belgium), from SPF Finances tax data',
  licence: 'Licence open data Statbel (compatible CC BY 4.0)',
  licence_url: 'https://statbel.fgov.be/fr/propos-de-statbel/informations-legales/licence-open-data',
  attribution: 'Statbel, statistiques fiscales des revenus par secteur statistique',
  url: 'https://statbel.fgov.be/en/open-data/fiscal-statistics-income-statistical-sector',
  download_url: 'https://statbel.fgov.be/sites/default/files/files/opendata/arbeid%20per%20sector/TF_PSNL_INC_TAX_SECTOR.zip',
  format: 'csv',
  crs: 'none (joined by statistical sector code)',
  encoding: 'utf-8 (with BOM)',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/be/statbel-income',
};
