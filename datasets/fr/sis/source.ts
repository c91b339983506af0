import type { Source } from '../../source.ts';

/**
 * The soil information areas (secteurs d'information sur les sols, SIS: article L. 125-6 of the
 * environment code) published by the prefectures and gathered by Géorisques: polygons where the
 * known soil pollution requires soil studies and management measures, in Lambert-93.
 */
export const sisSource: Source = {
  id: 'fr.sis', country: 'fr', name: 'Secteurs d’information sur les sols (SIS)',
  producer: 'Ministère de la Transition écologique, préfectures (Géorisques)',
  licence: 'Licence Ouverte / Open Licence', licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'MTE, secteurs d’information sur les sols (Géorisques)', url: 'https://www.georisques.gouv.fr/risques/sites-et-sols-pollues/donnees#/type=sis',
  download_url: null, format: 'geojson', crs: 'EPSG:2154 (Lambert-93), read from the file', encoding: 'utf-8',
  update_frequency: 'irregular', tables: ['hazard_areas', 'hazard_areas_cells', 'polluted_sites'], sample: 'datasets/fr/sis',
};

/** Layer of fr/hazard_areas holding the SIS polygons (for `inside`). */
export const SIS_LAYER = 'soil_information_area';
