import type { Source } from '../../source.ts';

/** The national consolidation of the charging points files published under the IRVE static schema (2.x). */
export const chargingSource: Source = {
  id: 'fr.charging',
  country: 'fr',
  name: 'Fichier consolidé des bornes de recharge pour véhicules électriques (IRVE)',
  producer: 'Etalab / transport.data.gouv.fr, from the operators',
  licence: 'Licence Ouverte / Open Licence',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'Fichier consolidé IRVE (data.gouv.fr), schéma IRVE statique',
  url: 'https://www.data.gouv.fr/fr/datasets/fichier-consolide-des-bornes-de-recharge-pour-vehicules-electriques/',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:4326 (coordonneesXY "[longitude, latitude]")',
  encoding: 'utf-8',
  update_frequency: 'daily',
  tables: ['places'],
  sample: 'datasets/fr/charging',
};
