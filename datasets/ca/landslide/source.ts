import type { Source } from '../../source.ts';

/** Quebec's landslide constraint zones (zones de contraintes relatives aux glissements de terrain), mapped sectors only. */
export const landslideSource: Source = {
  id: 'ca.landslide', country: 'ca', name: 'Zones de contraintes relatives aux glissements de terrain',
  producer: 'Ministère des Transports et de la Mobilité durable (MTMD) et Ministère de la Sécurité publique (MSP), Québec',
  licence: 'CC BY 4.0', licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Gouvernement du Québec, cartographie des zones de contraintes relatives aux glissements de terrain', url: 'https://www.donneesquebec.ca/recherche/dataset/zones-de-contraintes-relatives-aux-glissements-de-terrain',
  download_url: null, format: 'geojson', crs: 'EPSG:32198 (NAD83 / Quebec Lambert), read from the file', encoding: 'utf-8',
  update_frequency: 'irregular', tables: ['hazard_areas', 'hazard_areas_cells'], sample: 'datasets/ca/landslide',
};

export const CA_LANDSLIDE_LAYER = 'landslide';
