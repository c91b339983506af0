import type { Source } from '../../source.ts';

/**
 * The zones under the legal brush-clearing obligation (obligations légales de débroussaillement,
 * OLD: articles L. 131-10 and following of the forestry code), the national informative zoning
 * served by Géorisques: polygons in Lambert-93.
 */
export const brushClearingSource: Source = {
  id: 'fr.brush-clearing', country: 'fr', name: 'Zonage informatif des obligations légales de débroussaillement (OLD)',
  producer: 'Ministère de l’Agriculture et de la Souveraineté alimentaire, IGN (Géorisques)',
  licence: 'Licence Ouverte / Open Licence', licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'MASA / IGN, zonage informatif des OLD (Géorisques)', url: 'https://www.georisques.gouv.fr/risques/feux-de-foret',
  download_url: null, format: 'geojson', crs: 'EPSG:2154 (Lambert-93), read from the file', encoding: 'utf-8',
  update_frequency: 'irregular', tables: ['hazard_areas', 'hazard_areas_cells'], sample: 'datasets/fr/brush-clearing',
};

/** Layer of fr/hazard_areas holding the OLD zones. */
export const BRUSH_CLEARING_LAYER = 'brush_clearing';
