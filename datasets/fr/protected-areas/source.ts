import type { Source } from '../../source.ts';

/**
 * Heritage protection perimeters, as public utility easements (servitudes d'utilité publique,
 * SUP) published on the Géoportail de l'urbanisme (GPU) in the CNIG SUP standard: the surfaces
 * ("assiettes") of category AC1 (historic monuments: the monument's own surface and the
 * perimeter of its surroundings, "abords", article L. 621-30 of the heritage code) and AC4
 * (sites patrimoniaux remarquables, article L. 631-1). The GPU serves every category in one
 * layer, `wfs_sup:assiette_sup_s`; the culture ministry's services (UDAP, DRAC) produce them.
 */
export const protectedAreasSource: Source = {
  id: 'fr.protected-areas', country: 'fr', name: 'Servitudes AC1 (monuments historiques et abords) et AC4 (sites patrimoniaux remarquables)',
  producer: "Ministère de la Culture (UDAP, DRAC), publié par le Géoportail de l'urbanisme (IGN)",
  licence: 'Licence Ouverte / Open Licence', licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: "Ministère de la Culture, servitudes AC1 et AC4 (Géoportail de l'urbanisme)", url: 'https://www.geoportail-urbanisme.gouv.fr/',
  download_url: null, format: 'geojson', crs: 'read from the file (the WFS GeoJSON: WGS84; a CNIG shapefile: its .prj, Lambert-93)', encoding: 'utf-8',
  update_frequency: 'irregular', tables: ['protected_areas', 'protected_areas_cells'], sample: 'datasets/fr/protected-areas',
};

/** The table of the protected areas (kind areas: an outline per assiette, its cover in `protected_areas_cells`). */
export const PROTECTED_AREAS_TABLE = 'protected_areas';

/**
 * The assiettes kept, by SUP category and published `typeass` (CNIG SUP standard as the GPU
 * validates it: AC1 "Périmètre des abords" or "Monument historique", AC4 "Périmètre du SPR"),
 * each to its layer of fr/protected_areas, in the order the building serves them (the monument
 * itself, then the site, then the surroundings: abords do not apply inside a SPR).
 */
export const PROTECTED_AREA_TYPES = [
  { category: 'AC1', typeass: 'Monument historique', layer: 'historic_monument' },
  { category: 'AC4', typeass: 'Périmètre du SPR', layer: 'remarkable_heritage_site' },
  { category: 'AC1', typeass: 'Périmètre des abords', layer: 'historic_monument_surroundings' },
] as const;
export type ProtectedAreaLayer = (typeof PROTECTED_AREA_TYPES)[number]['layer'];
