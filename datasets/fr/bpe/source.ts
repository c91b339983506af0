import type { Source } from '../../source.ts';

/**
 * INSEE's Base permanente des équipements, geolocated file (the "ensemble" file with XY): one row
 * per equipment unit (a doctor, a school, a bakery...), positions in Lambert-93 for mainland France
 * and the legal UTM system of each overseas department, no names.
 */
export const bpeSource: Source = {
  id: 'fr.bpe',
  country: 'fr',
  name: 'Base permanente des équipements (fichier géolocalisé)',
  producer: 'INSEE',
  licence: 'Licence Ouverte / Open Licence',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'INSEE, Base permanente des équipements',
  url: 'https://www.insee.fr/fr/statistiques/3568638',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:2154 (mainland), EPSG:5490 (971, 972), EPSG:2972 (973), EPSG:2975 (974), EPSG:4471 (976), by the row\'s DEP',
  encoding: 'windows-1252',
  update_frequency: 'yearly',
  tables: ['places'],
  sample: 'datasets/fr/bpe',
};
