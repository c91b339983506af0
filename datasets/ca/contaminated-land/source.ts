import type { Source } from '../../source.ts';

/**
 * The Répertoire des terrains contaminés (système GTC), published as a GeoPackage
 * (RepertoireTerrainsContamines.gpkg): layer `point` (one row per site, NO_MEF_LIEU, LATITUDE,
 * LONGITUDE, ADR_CIV_LIEU...) and table `detailsFiches` (one row per file of the site, ETAT_REHAB,
 * DATE_CRE_MAJ...).
 */
export const contaminatedLandSource: Source = {
  id: 'ca.contaminated-land', country: 'ca', name: 'Répertoire des terrains contaminés',
  producer: 'Ministère de l’Environnement, de la Lutte contre les changements climatiques, de la Faune et des Parcs (MELCCFP), Québec',
  licence: 'CC BY 4.0', licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: 'Gouvernement du Québec, MELCCFP, Répertoire des terrains contaminés', url: 'https://www.donneesquebec.ca/recherche/dataset/repertoire-des-terrains-contamines',
  download_url: null, format: 'geopackage', crs: 'NAD83 geographic (LATITUDE, LONGITUDE columns of the point layer)', encoding: 'utf-8',
  update_frequency: 'weekly', tables: ['polluted_sites'], sample: 'datasets/ca/contaminated-land',
};

/** Category of a Quebec site in ca/polluted_sites. */
export const CA_CONTAMINATED_CATEGORY = 'polluted_site.contaminated_land';
