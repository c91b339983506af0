import type { Source } from '../../source.ts';

/** The national education directory (annuaire de l'éducation): schools, collèges, lycées, open or closed, with a position. */
export const schoolsSource: Source = {
  id: 'fr.schools',
  country: 'fr',
  name: "Annuaire de l'éducation",
  producer: "Ministère de l'Éducation nationale",
  licence: 'Licence Ouverte / Open Licence',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: "Ministère de l'Éducation nationale, Annuaire de l'éducation (data.education.gouv.fr)",
  url: 'https://data.education.gouv.fr/explore/dataset/fr-en-annuaire-education/',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:4326 (latitude and longitude columns)',
  encoding: 'utf-8',
  update_frequency: 'daily',
  tables: ['places'],
  sample: 'datasets/fr/schools',
};
