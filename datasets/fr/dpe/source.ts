import type { Source } from '../../source.ts';

/**
 * ADEME's energy performance diagnoses of dwellings since July 2021 (DPE v2): two datasets, new
 * dwellings (`dpe-v2-logements-neufs`) and existing dwellings (`dpe-v2-logements-existants`),
 * exported as CSV (comma, UTF-8 with BOM, accented column names with `N°`), BAN coordinates in
 * Lambert-93, corrected diagnoses naming the number they replace.
 */
export const dpeSource: Source = {
  id: 'fr.dpe',
  country: 'fr',
  name: 'Diagnostics de performance énergétique des logements (DPE v2)',
  producer: 'ADEME',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'ADEME, Observatoire DPE (data.ademe.fr)',
  url: 'https://data.ademe.fr/datasets/dpe-v2-logements-existants',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:2154 (Lambert-93) BAN coordinates',
  encoding: 'utf-8 with BOM',
  update_frequency: 'weekly',
  tables: ['diagnoses', 'id_registry', 'id_merges'],
  sample: 'datasets/fr/dpe',
};
