import type { Source } from '../../source.ts';

/**
 * IRSN (now ASNR) radon potential of every commune: category 1, 2 or 3, one file for the whole
 * territory (data.gouv.fr "Connaître le potentiel radon de ma commune", also served by Géorisques).
 */
export const radonSource: Source = {
  id: 'fr.radon',
  country: 'fr',
  name: 'Potentiel radon des communes',
  producer: 'IRSN (ASNR)',
  licence: 'Licence Ouverte / Open Licence',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'IRSN, potentiel radon des communes (Géorisques)',
  url: 'https://www.data.gouv.fr/fr/datasets/connaitre-le-potentiel-radon-de-ma-commune/',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by commune code)',
  encoding: 'utf-8',
  update_frequency: 'irregular',
  tables: ['zone_values'],
  sample: 'datasets/fr/radon',
};

/** The indicator of fr/zone_values holding the class (written by ingest/fr/radon.ts, read by the risks domain). */
export const RADON_INDICATOR = 'hazard.radon_potential';
