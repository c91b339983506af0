import type { Source } from '../../source.ts';

/**
 * MAMH's richesse foncière uniformisée (RFU) by municipal body, on Données Québec: one row per
 * organisme municipal (cod_geo), one column per "poste" code of MAMH's financial data; CSALX02163
 * is the comparative factor of the roll (the inverse of its median proportion) for the fiscal year.
 */
export const caAssessmentSource: Source = {
  id: 'ca.assessment',
  country: 'ca',
  name: 'Richesse foncière uniformisée (RFU) des organismes municipaux',
  producer: "Ministère des Affaires municipales et de l'Habitation (MAMH), Québec",
  licence: 'Creative Commons Attribution 4.0 (CC BY 4.0)',
  licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Gouvernement du Québec, MAMH, richesse foncière uniformisée',
  url: 'https://www.donneesquebec.ca/recherche/dataset/richesse-fonciere-uniformisee',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by municipality code)',
  encoding: 'utf-8',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/ca/assessment',
};

/**
 * MAMH's données prévisionnelles non auditées of the municipal bodies (the budget forecasts, one
 * CSV a year, `Données-prévisionnelles-non-auditées-<year>-SimpleOccurrence.csv`): one row per
 * organisme municipal (cod_geo), one column per poste; CPALB01726 is the general property tax rate
 * of the residual (residential) category, per 100 CAD of assessed value.
 */
export const caTaxRatesSource: Source = {
  id: 'ca.tax-rates',
  country: 'ca',
  name: 'Données prévisionnelles non auditées des organismes municipaux (taux de taxe foncière)',
  producer: "Ministère des Affaires municipales et de l'Habitation (MAMH), Québec",
  licence: 'Creative Commons Attribution 4.0 (CC BY 4.0)',
  licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Gouvernement du Québec, MAMH, données prévisionnelles',
  // Where public code downloads the yearly file (Données-prévisionnelles-non-auditées-<year>-SimpleOccurrence.csv); not fetched here.
  url: 'https://mamh.gouv.qc.ca/fichiersdonneesouvertes/',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by municipality code)',
  encoding: 'utf-8 (with BOM)',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/ca/assessment',
};

/**
 * MAMH's profil financier des municipalités locales (one CSV a year on Données Québec,
 * `PF-<edition>-<year>.csv`, with `PF-<edition>-<year>-DescriptionPoste.csv` naming its postes):
 * one row per local municipality or agglomeration, the territory and population columns then one
 * column per FIALX poste; FIALX02009 is the standardized average assessed value of one-dwelling
 * residences, FIALX02010 the standardized average assessed value per dwelling, of the year `an_donnee`.
 */
export const caFinancialProfileSource: Source = {
  id: 'ca.financial-profile',
  country: 'ca',
  name: 'Profil financier des municipalités locales (valeurs foncières moyennes uniformisées)',
  producer: "Ministère des Affaires municipales et de l'Habitation (MAMH), Québec",
  licence: 'Creative Commons Attribution 4.0 (CC BY 4.0)',
  licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Gouvernement du Québec, MAMH, profil financier des municipalités locales',
  url: 'https://www.donneesquebec.ca/recherche/dataset/profil-financier-des-municipalites-locales',
  // Where public code downloads the yearly file (PF-<edition>-<year>.csv); not fetched here.
  download_url: null,
  format: 'csv',
  crs: 'none (joined by municipality code)',
  encoding: 'utf-8',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/ca/assessment',
};
