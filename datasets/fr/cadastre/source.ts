import type { Source } from '../../source.ts';

/**
 * Etalab's cadastre (DGFiP's PCI vecteur, reformatted by Etalab): one GeoJSON file of parcels per
 * commune, `cadastre-<insee>-parcelles.json.gz`, WGS84, refreshed each quarter. Paris, Lyon and
 * Marseille are published per municipal arrondissement (`cadastre-75111-parcelles.json.gz`).
 */
export const cadastreSource: Source = {
  id: 'fr.cadastre',
  country: 'fr',
  name: 'Cadastre (parcelles)',
  producer: 'DGFiP, Etalab',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'DGFiP, plan cadastral informatisé (Etalab, cadastre.data.gouv.fr)',
  url: 'https://cadastre.data.gouv.fr/datasets/cadastre-etalab',
  download_url: 'https://cadastre.data.gouv.fr/data/etalab-cadastre/latest/geojson/communes/{department}/{commune}/cadastre-{commune}-parcelles.json.gz',
  format: 'geojson',
  crs: 'EPSG:4326 (WGS84), no crs member',
  encoding: 'utf-8',
  update_frequency: 'quarterly',
  tables: ['parcels', 'parcels_cells'],
  sample: 'datasets/fr/cadastre',
};

/** The layer of fr/parcels (areas table kind) holding the parcels. */
export const PARCEL_LAYER = 'parcel';
