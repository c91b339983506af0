import type { Source } from '../../source.ts';

/**
 * Quebec's mapped flood zones (zones inondables) by return period: 0-20 years (grand courant)
 * and 20-100 years (faible courant), as a polygon layer in NAD83 / Quebec Lambert.
 */
export const floodZonesSource: Source = {
  id: 'ca.flood-zones', country: 'ca', name: 'Zones inondables (cartographie gouvernementale, récurrences 0-20 ans et 20-100 ans)',
  producer: 'Ministère de l’Environnement, de la Lutte contre les changements climatiques, de la Faune et des Parcs (MELCCFP), Québec',
  licence: 'CC BY 4.0', licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Gouvernement du Québec, MELCCFP, zones inondables', url: 'https://www.donneesquebec.ca/recherche/dataset/base-de-donnees-des-zones-a-risque-d-inondation',
  download_url: null, format: 'geojson', crs: 'EPSG:32198 (NAD83 / Quebec Lambert), read from the file', encoding: 'utf-8',
  update_frequency: 'irregular', tables: ['hazard_areas', 'hazard_areas_cells'], sample: 'datasets/ca/flood-zones',
};

/** The layer of ca/hazard_areas holding the flood zones. */
export const CA_FLOOD_LAYER = 'flood';
