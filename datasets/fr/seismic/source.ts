import type { Source } from '../../source.ts';

/**
 * The regulatory seismic zoning of France (décret n° 2010-1255 of 22 October 2010, article
 * D. 563-8-1 of the environment code): each commune in one of five zones, 1 (very low) to 5 (strong).
 */
export const seismicSource: Source = {
  id: 'fr.seismic',
  country: 'fr',
  name: 'Zonage sismique réglementaire de la France, par commune',
  producer: 'Ministère de la Transition écologique (DGPR)',
  licence: 'Licence Ouverte / Open Licence',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'Zonage sismique de la France (décret n° 2010-1255), Géorisques',
  url: 'https://www.georisques.gouv.fr/risques/seismes',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by commune code)',
  encoding: 'utf-8',
  update_frequency: 'irregular',
  tables: ['zone_values'],
  sample: 'datasets/fr/seismic',
};

/** The indicator of fr/zone_values holding the class (written by ingest/fr/seismic.ts, read by the risks domain). */
export const SEISMIC_INDICATOR = 'hazard.seismic_zone';
