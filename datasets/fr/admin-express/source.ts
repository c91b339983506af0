import type { Source } from '../../source.ts';

export const adminExpressSource: Source = {
  id: 'fr.admin-express',
  country: 'fr',
  name: 'ADMIN EXPRESS (régions, départements, communes, arrondissements municipaux)',
  producer: 'IGN',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'IGN, ADMIN EXPRESS',
  url: 'https://geoservices.ign.fr/adminexpress',
  download_url: null,
  format: 'shapefile',
  crs: 'EPSG:2154 (metropolitan France); local UTM systems overseas',
  encoding: 'utf-8',
  update_frequency: 'monthly',
  tables: ['zones', 'zone_cells'],
  sample: 'datasets/fr/admin-express',
};
