import type { Source } from '../../source.ts';

export const contoursIrisSource: Source = {
  id: 'fr.contours-iris',
  country: 'fr',
  name: 'CONTOURS-IRIS',
  producer: 'IGN, INSEE',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'IGN, INSEE, CONTOURS-IRIS',
  url: 'https://geoservices.ign.fr/contoursiris',
  download_url: null,
  format: 'shapefile',
  crs: 'EPSG:2154 (metropolitan France); local UTM systems overseas',
  encoding: 'utf-8',
  update_frequency: 'yearly',
  tables: ['zones', 'zone_cells'],
  sample: 'datasets/fr/contours-iris',
};
