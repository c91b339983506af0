import type { Source } from '../../source.ts';

/**
 * Bruxelles Environnement's flood hazard map of the Brussels-Capital Region (carte des zones
 * d'aléa d'inondation / overstromingsgevaarkaart): zones of low, medium and high hazard, in
 * Belgian Lambert 72.
 */
export const brusselsFloodSource: Source = {
  id: 'be.brussels-flood', country: 'be', name: 'Carte des zones d’aléa d’inondation / Overstromingsgevaarkaart (Région de Bruxelles-Capitale)',
  producer: 'Bruxelles Environnement / Leefmilieu Brussel',
  licence: 'CC BY 4.0', licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Bruxelles Environnement, carte des zones d’aléa d’inondation', url: 'https://environnement.brussels/citoyen/outils-et-donnees/cartes-thematiques/carte-des-zones-dalea-dinondation',
  download_url: null, format: 'geojson', crs: 'EPSG:31370 (Belge 1972 / Belgian Lambert 72), read from the file', encoding: 'utf-8',
  update_frequency: 'irregular', tables: ['hazard_areas', 'hazard_areas_cells'], sample: 'datasets/be/brussels-flood',
};

export const BE_FLOOD_LAYER = 'flood';
