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
