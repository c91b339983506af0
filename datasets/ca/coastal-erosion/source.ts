import type { Source } from '../../source.ts';

/** Quebec's coastal erosion constraint zones (zones de contraintes relatives à l’érosion côtière), estuary and gulf shores. */
export const coastalErosionSource: Source = {
  id: 'ca.coastal-erosion', country: 'ca', name: 'Zones de contraintes relatives à l’érosion côtière',
  producer: 'Ministère de la Sécurité publique (MSP), Québec, avec le Laboratoire de dynamique et de gestion intégrée des zones côtières (UQAR)',
  licence: 'CC BY 4.0', licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Gouvernement du Québec, MSP, zones de contraintes relatives à l’érosion côtière', url: 'https://www.donneesquebec.ca/recherche/dataset/zones-de-contraintes-relatives-a-l-erosion-cotiere',
  download_url: null, format: 'geojson', crs: 'EPSG:32198 (NAD83 / Quebec Lambert), read from the file', encoding: 'utf-8',
  update_frequency: 'irregular', tables: ['hazard_areas', 'hazard_areas_cells'], sample: 'datasets/ca/coastal-erosion',
};

export const CA_COASTAL_EROSION_LAYER = 'coastal_erosion';
