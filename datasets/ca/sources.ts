import type { Source } from '../source.ts';

const CC_BY = { licence: 'CC BY 4.0', licence_url: 'https://creativecommons.org/licenses/by/4.0/' };

export const sdaSource: Source = {
  id: 'ca.sda', country: 'ca', name: 'Système sur les découpages administratifs (SDA): régions, MRC, municipalités, arrondissements',
  producer: 'Ministère des Ressources naturelles et des Forêts (MRNF), Québec', ...CC_BY,
  attribution: 'Gouvernement du Québec, MRNF, Découpages administratifs', url: 'https://www.donneesquebec.ca/recherche/dataset/decoupages-administratifs',
  download_url: null, format: 'shapefile', crs: 'EPSG:4269 (NAD83 geographic), as published', encoding: 'cp850 or as declared',
  update_frequency: 'quarterly', tables: ['zones', 'zone_cells'], sample: 'datasets/ca/sda',
};

export const munSource: Source = {
  id: 'ca.mun', country: 'ca', name: 'Répertoire des municipalités du Québec (MUN.csv)',
  producer: "Ministère des Affaires municipales et de l'Habitation (MAMH)", ...CC_BY,
  attribution: 'Gouvernement du Québec, MAMH, Répertoire des municipalités', url: 'https://www.donneesquebec.ca/recherche/dataset/repertoire-des-municipalites-du-quebec',
  download_url: null, format: 'csv', crs: 'none', encoding: 'utf-8', update_frequency: 'weekly', tables: ['zones'], sample: 'datasets/ca/mun',
};

export const montrealLimitsSource: Source = {
  id: 'ca.montreal-limadmin', country: 'ca', name: "Limites administratives de l'agglomération de Montréal (arrondissements et villes liées)",
  producer: 'Ville de Montréal', ...CC_BY, attribution: 'Ville de Montréal', url: 'https://donnees.montreal.ca/dataset/limites-administratives-agglomeration',
  download_url: null, format: 'geojson', crs: 'EPSG:4326', encoding: 'utf-8', update_frequency: 'irregular', tables: ['zones', 'zone_cells'], sample: '',
};

export const fsaSource: Source = {
  id: 'ca.statcan-fsa', country: 'ca', name: 'Forward sortation areas, boundary file (lfsa000b21a_e)',
  producer: 'Statistics Canada', licence: 'Statistics Canada Open Licence', licence_url: 'https://www.statcan.gc.ca/en/reference/licence',
  attribution: 'Statistics Canada, Forward Sortation Area Boundary File, 2021 Census', url: 'https://www12.statcan.gc.ca/census-recensement/2021/geo/sip-pis/boundary-limites/index2021-eng.cfm',
  download_url: null, format: 'shapefile', crs: 'EPSG:3347 (Statistics Canada Lambert)', encoding: 'utf-8', update_frequency: 'irregular',
  tables: ['zones', 'zone_cells'], sample: 'datasets/ca/fsa',
};

export const rentalAreasSource: Source = {
  id: 'ca.rental-areas', country: 'ca', name: 'Quartiers de l’enquête sur les logements locatifs (survey regions and neighbourhoods)',
  producer: 'Société canadienne d’hypothèques et de logement (SCHL / CMHC), Rental Market Survey zones', licence: 'CMHC terms of use',
  licence_url: 'https://www.cmhc-schl.gc.ca/about-us/terms-conditions', attribution: 'SCHL / CMHC, Enquête sur les logements locatifs',
  url: 'https://www.cmhc-schl.gc.ca/professionals/housing-markets-data-and-research/housing-data/data-tables/rental-market',
  download_url: null, format: 'shapefile', crs: 'EPSG:4269 or as declared', encoding: 'utf-8', update_frequency: 'yearly',
  tables: ['zones', 'zone_cells'], sample: 'datasets/ca/rental-areas',
};

export const adressesQuebecSource: Source = {
  id: 'ca.adresses-quebec', country: 'ca', name: 'Adresses Québec (adresses civiques)',
  producer: 'Ministère des Ressources naturelles et des Forêts (MRNF), Québec', ...CC_BY,
  attribution: 'Gouvernement du Québec, MRNF, Adresses Québec', url: 'https://www.donneesquebec.ca/recherche/dataset/adresses-quebec',
  download_url: null, format: 'csv', crs: 'EPSG:32198 (NAD83 / Quebec Lambert)', encoding: 'utf-8', update_frequency: 'monthly',
  tables: ['addresses'], sample: 'datasets/ca/adresses-quebec',
};

export const montrealRollSource: Source = {
  id: 'ca.montreal-roll', country: 'ca', name: "Unités d'évaluation foncière (rôle d'évaluation de l'agglomération de Montréal)",
  producer: "Ville de Montréal, Service de l'évaluation foncière", ...CC_BY, attribution: 'Ville de Montréal, rôle d’évaluation foncière',
  url: 'https://donnees.montreal.ca/dataset/unites-evaluation-fonciere', download_url: null, format: 'csv', crs: 'none (placed along the street from the official addresses)',
  encoding: 'utf-8', update_frequency: 'yearly', tables: ['addresses'], sample: 'datasets/ca/role-montreal',
};
