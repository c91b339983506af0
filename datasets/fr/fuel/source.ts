import type { Source } from '../../source.ts';

/** The fuel-price stations flow (prix-carburants): every point of sale with its position and prices. */
export const fuelSource: Source = {
  id: 'fr.fuel',
  country: 'fr',
  name: 'Prix des carburants en France (flux instantané)',
  producer: "Ministère de l'Économie",
  licence: 'Licence Ouverte / Open Licence',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: "Ministère de l'Économie, prix-carburants.gouv.fr",
  url: 'https://www.prix-carburants.gouv.fr/rubrique/opendata/',
  download_url: null,
  format: 'xml',
  crs: 'EPSG:4326 in degrees multiplied by 100,000 (latitude and longitude attributes)',
  encoding: 'iso-8859-1',
  update_frequency: 'daily',
  tables: ['places'],
  sample: 'datasets/fr/fuel',
};
