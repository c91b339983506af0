import type { Source } from '../../source.ts';

/**
 * GASPAR (Gestion ASsistée des Procédures Administratives relatives aux Risques), the ministry's
 * base of risk procedures, published by Géorisques as CSV files in gaspar.zip. Its "risques
 * recensés par commune" file (risq_gaspar.csv, in recent archives ddrm_risq_gaspar_<date>.csv):
 * the major risks the departmental file (DDRM) lists for each commune, one row per commune and
 * risk of GASPAR's nomenclature.
 */
export const gasparSource: Source = {
  id: 'fr.gaspar',
  country: 'fr',
  name: 'Base GASPAR : risques recensés par commune',
  producer: 'Ministère de la Transition écologique (DGPR), Géorisques',
  licence: 'Licence Ouverte / Open Licence',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'Base GASPAR (DGPR), Géorisques',
  url: 'https://www.georisques.gouv.fr/donnees/bases-de-donnees/base-gaspar',
  download_url: 'https://files.georisques.fr/GASPAR/gaspar.zip',
  format: 'csv',
  crs: 'none (joined by commune code)',
  encoding: 'utf-8',
  update_frequency: 'weekly',
  tables: ['zone_values'],
  sample: 'datasets/fr/gaspar',
};

/**
 * The indicator of fr/zone_values listing GASPAR's risks of a commune: one row per risk, the
 * risk's code of GASPAR's nomenclature in `breakdown`, value 1 (written by ingest/fr/gaspar.ts,
 * read by the risks domain).
 */
export const GASPAR_INDICATOR = 'hazard.gaspar_known_risk';
