import type { Source } from '../../source.ts';

/**
 * The national building reference (RNB, IGN/ADEME/CSTB/DGALN): every building with its RNB id,
 * point, footprint, status, ids in other databases (BD TOPO...) and BAN addresses; published as one
 * CSV per department. Feeds the building ids, footprints, footprint_m2 and the address links.
 */
export const rnbSource: Source = {
  id: 'fr.rnb',
  country: 'fr',
  name: 'Référentiel national des bâtiments (RNB)',
  producer: 'RNB (IGN, ADEME, CSTB, DGALN)',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'Référentiel national des bâtiments (rnb.beta.gouv.fr)',
  url: 'https://www.data.gouv.fr/fr/datasets/referentiel-national-des-batiments/',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:4326 (WKT geometries)',
  encoding: 'utf-8',
  update_frequency: 'monthly',
  tables: ['buildings', 'buildings_cells', 'building_links', 'id_registry', 'id_merges'],
  sample: 'datasets/fr/buildings',
};

/**
 * The BDNB open export (CSTB): building groups with the values of their sources compiled
 * (`batiment_groupe_compile`, one CSV per department): DGFiP's fichiers fonciers (ffo_: construction
 * year, dwellings, levels, wall and roof materials, use), IGN's BD TOPO (bdtopo_: mean height), the
 * parcel and the RNB id; when present Mérimée (merimee_), Enedis (dle_elec_) and the RPLS (rpls_).
 * Its `proprietaire` and `rel_batiment_groupe_proprietaire` tables (DGFiP's fichiers des locaux des
 * personnes morales) name the legal-person owners. Feeds construction_year, dwellings, levels,
 * materials, type, height_m, heritage.historic_monument, electricity_per_meter,
 * social_housing.dwellings and legal_owners.
 */
export const bdnbSource: Source = {
  id: 'fr.bdnb',
  country: 'fr',
  name: 'Base de données nationale des bâtiments (BDNB), export open data',
  producer: 'CSTB',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'CSTB, Base de données nationale des bâtiments (bdnb.io), sources DGFiP (fichiers fonciers, fichiers des locaux des personnes morales), IGN (BD TOPO), Ministère de la Culture (Mérimée), Enedis, SDES (RPLS)',
  url: 'https://bdnb.io/archives_data/bdnb_millesime_2023_01_a/',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by RNB id)',
  encoding: 'utf-8',
  update_frequency: 'half_yearly',
  tables: ['buildings', 'buildings_cells', 'building_links', 'id_registry', 'id_merges'],
  sample: 'datasets/fr/buildings',
};
