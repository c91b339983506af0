import type { Source } from '../../source.ts';

export const balSource: Source = {
  id: 'fr.bal',
  country: 'fr',
  name: 'Base Adresse Locale (BAL) of a commune',
  producer: 'the commune (published through mes-adresses or its own tool, consolidated by the BAN)',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'Base Adresse Locale of the commune, Base Adresse Nationale',
  url: 'https://adresse.data.gouv.fr/bases-locales',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:2154 (x, y) and EPSG:4326 (long, lat)',
  encoding: 'utf-8',
  update_frequency: 'irregular',
  tables: ['addresses'],
  sample: 'datasets/fr/bal',
};
