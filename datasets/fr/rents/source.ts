import type { Source } from '../../source.ts';

/**
 * ANIL / DHUP rent map ("carte des loyers"): predicted advertised rents per m² by commune, one file
 * per property type (pred-app, pred-mai, pred-app12, pred-app3-mef-dhup.csv), one edition a year.
 */
export const rentsSource: Source = {
  id: 'fr.rents',
  country: 'fr',
  name: "Carte des loyers: indicateurs de loyers d'annonce par commune",
  producer: 'ANIL and the DHUP (Ministère de la Transition écologique)',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: "Carte des loyers, ANIL / DHUP, loyers d'annonce (Le Bon Coin, SeLoger)",
  url: 'https://www.data.gouv.fr/fr/datasets/carte-des-loyers-indicateurs-de-loyers-dannonce-par-commune-en-2023/',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by INSEE commune code)',
  encoding: 'utf-8 or latin-1 depending on the edition (--encoding)',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/fr/rents',
};
