import type { Source } from '../../source.ts';

/**
 * The Federal Agency for Medicines and Health Products's list of the pharmacies open to the public
 * (AFMPS/FAGG, Lst_Pharmacies_pub_Extended.xlsx): one row per licensed pharmacy with its Lambert
 * 2008 position (the coordinates the royal decree of 16 January 2022 fixes for each pharmacy).
 * Pharmacies only: Belgium's health count is its pharmacies (no hospital or doctor list is read).
 */
export const beHealthAfmpsSource: Source = {
  id: 'be.health-afmps',
  country: 'be',
  name: 'Liste des officines ouvertes au public / Lijst van de voor het publiek opengestelde apotheken',
  producer: 'Agence fédérale des médicaments et des produits de santé (AFMPS / FAGG)',
  // Not read on the AFMPS site (no copy of its terms at hand): to check before any redistribution.
  licence: 'unknown (to check)',
  licence_url: 'https://www.afmps.be/fr/humain/medicaments/medicaments/distribution/pharmacies_ouvertes_au_public',
  attribution: 'AFMPS / FAGG, liste des officines ouvertes au public',
  url: 'https://www.afmps.be/fr/humain/medicaments/medicaments/distribution/pharmacies_ouvertes_au_public',
  download_url: 'https://www.fagg.be/sites/default/files/content/INSP/OFFICINES/Lst_Pharmacies_pub_Extended.xlsx',
  format: 'xlsx',
  crs: 'EPSG:3812 (X, Y: Belgian Lambert 2008)',
  encoding: 'utf-8',
  update_frequency: 'irregular',
  tables: ['places'],
  sample: 'datasets/be/health',
};
