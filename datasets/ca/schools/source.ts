import type { Source } from '../../source.ts';

/**
 * Quebec's public schools (Ministère de l'Éducation, "Localisation des établissements d'enseignement
 * du réseau scolaire au Québec", layer PPS_Public_Ecole): one feature per school and building.
 */
export const caSchoolsSource: Source = {
  id: 'ca.schools',
  country: 'ca',
  name: "Localisation des établissements d'enseignement du réseau scolaire (écoles publiques, PPS_Public_Ecole)",
  producer: "Ministère de l'Éducation du Québec",
  licence: 'CC BY 4.0',
  licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: "Gouvernement du Québec, Ministère de l'Éducation, localisation des établissements d'enseignement",
  url: 'https://www.donneesquebec.ca/recherche/dataset/localisation-des-etablissements-d-enseignement-du-reseau-scolaire-au-quebec',
  download_url: null,
  format: 'geojson',
  crs: 'EPSG:4326 (GeoJSON; COORD_X_LL84_IMM/COORD_Y_LL84_IMM when a feature has no geometry)',
  encoding: 'utf-8',
  update_frequency: 'yearly',
  tables: ['places'],
  sample: 'datasets/ca/schools',
};
