import type { Source } from '../../source.ts';

/**
 * The national co-ownership registry (Registre national d'immatriculation des copropriétés, RNIC),
 * ANAH's open-data export on data.gouv.fr: one line per registered co-ownership (CSV, comma, UTF-8,
 * snake_case header), its registration number and date, name, manager (a volunteer manager is not
 * named), mandate, lots, construction period, reference address with a WGS84 point, and up to three
 * cadastral parcels. Unknown values are written "non connu". Feeds building.copro.
 */
export const rnicSource: Source = {
  id: 'fr.rnic',
  country: 'fr',
  name: "Registre national d'immatriculation des copropriétés (RNIC)",
  producer: 'ANAH',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: "Agence nationale de l'habitat (ANAH), registre national d'immatriculation des copropriétés",
  url: 'https://www.data.gouv.fr/fr/datasets/registre-national-dimmatriculation-des-coproprietes/',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:4326 (longitude, latitude)',
  encoding: 'utf-8',
  update_frequency: 'quarterly',
  tables: ['copro'],
  sample: 'datasets/fr/copro',
};
