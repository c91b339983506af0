import type { Source } from '../../source.ts';

/**
 * BRGM's clay shrink-swell exposure map of metropolitan France (2019): polygons of exposure
 * low (NIVEAU 1), medium (2), high (3), in Lambert-93, published nationally and by department.
 */
export const claySource: Source = {
  id: 'fr.clay',
  country: 'fr',
  name: 'Exposition au retrait-gonflement des argiles',
  producer: 'BRGM',
  licence: 'Licence Ouverte / Open Licence',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'BRGM, carte d’exposition au retrait-gonflement des argiles (Géorisques)',
  url: 'https://www.georisques.gouv.fr/donnees/bases-de-donnees/retrait-gonflement-des-argiles',
  download_url: null,
  format: 'geojson',
  crs: 'EPSG:2154 (Lambert-93), read from the file',
  encoding: 'utf-8',
  update_frequency: 'irregular',
  tables: ['hazard_areas', 'hazard_areas_cells'],
  sample: 'datasets/fr/clay',
};

/** The layer of hazard_areas holding the clay exposure polygons (written by ingest/fr/clay.ts, read by the risks domain). */
export const CLAY_LAYER = 'clay_shrink_swell';
