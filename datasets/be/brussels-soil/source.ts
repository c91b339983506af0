import type { Source } from '../../source.ts';

/**
 * Bruxelles Environnement's soil-status inventory (inventaire de l'état du sol /
 * bodemtoestandinventaris): cadastral parcels by category (0 potentially polluted, 1 not
 * polluted, 2 slightly polluted without risk, 3 polluted without risk, 4 polluted, under study or
 * treatment, and their combinations such as 0+3), in Belgian Lambert 72.
 */
export const brusselsSoilSource: Source = {
  id: 'be.brussels-soil', country: 'be', name: 'Inventaire de l’état du sol / Bodemtoestandinventaris (Région de Bruxelles-Capitale)',
  producer: 'Bruxelles Environnement / Leefmilieu Brussel',
  licence: 'CC BY 4.0', licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Bruxelles Environnement, inventaire de l’état du sol', url: 'https://environnement.brussels/citoyen/outils-et-donnees/cartes-thematiques/carte-de-linventaire-de-letat-du-sol',
  download_url: null, format: 'geojson', crs: 'EPSG:31370 (Belge 1972 / Belgian Lambert 72), read from the file', encoding: 'utf-8',
  update_frequency: 'weekly', tables: ['hazard_areas', 'hazard_areas_cells', 'polluted_sites'], sample: 'datasets/be/brussels-soil',
};

/** Layer of be/hazard_areas holding the inventory's parcels (for `inside`). */
export const BE_SOIL_LAYER = 'soil_status';
