import type { Source } from '../../source.ts';

/**
 * Quebec's health and social services installations (Ministère de la Santé et des Services sociaux,
 * "Fichiers cartographiques M02 des installations et établissements" on Données Québec, resource
 * installationscsv.csv): one row per installation, the physical place where care is given, with its
 * missions as Oui/Non columns. The public network only: pharmacies and private medical clinics are
 * not in it (Quebec's health count is its hospitals and CLSCs).
 */
export const caHealthSource: Source = {
  id: 'ca.health',
  country: 'ca',
  name: 'Fichiers cartographiques M02 des installations et établissements (installations)',
  producer: 'Ministère de la Santé et des Services sociaux du Québec',
  // Données Québec's usual licence; not read on this dataset's page (no copy at hand): to check.
  licence: 'CC BY 4.0',
  licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Gouvernement du Québec, Ministère de la Santé et des Services sociaux, répertoire M02 des installations',
  url: 'https://www.donneesquebec.ca/recherche/dataset/51998b55-7d4c-4381-8c20-0ac1cd9c1b87',
  download_url: 'https://www.donneesquebec.ca/recherche/dataset/51998b55-7d4c-4381-8c20-0ac1cd9c1b87/resource/2aa06e66-c1d0-4e2f-bf3c-c2e413c3f84d/download/installationscsv.csv',
  format: 'csv',
  crs: 'EPSG:4326 (LONGITUDE, LATITUDE in decimal degrees)',
  encoding: 'utf-8',
  update_frequency: 'irregular',
  tables: ['places'],
  sample: 'datasets/ca/health',
};
