import type { Source } from '../../source.ts';

export const bestSource: Source = {
  id: 'be.best',
  country: 'be',
  name: 'BeST Address (Belgian Streets and Addresses), openaddress-be<region>.csv',
  producer: 'SPF BOSA / FOD BOSA, from the regional authentic sources (UrbIS, Adressenregister, ICAR)',
  licence: 'CC0 1.0 / Licence open data BOSA',
  licence_url: 'https://opendata.bosa.be/',
  attribution: 'BeST Address, SPF BOSA',
  url: 'https://opendata.bosa.be/',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:31370 (x, y) and EPSG:4326 (lat, lon)',
  encoding: 'utf-8',
  update_frequency: 'weekly',
  tables: ['addresses'],
  partition_territories: { 'best.bebru': 'Brussels-Capital Region', 'best.bevlg': 'Flemish Region', 'best.bewal': 'Walloon Region' },
  sample: 'datasets/be/best',
};
