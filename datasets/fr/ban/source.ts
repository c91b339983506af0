import type { Source } from '../../source.ts';

export const banSource: Source = {
  id: 'fr.ban',
  country: 'fr',
  name: 'Base Adresse Nationale (BAN)',
  producer: 'IGN, DINUM (Etalab), ANCT',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'Base Adresse Nationale, IGN, DINUM, ANCT',
  url: 'https://adresse.data.gouv.fr/donnees-nationales',
  download_url: 'https://adresse.data.gouv.fr/data/ban/adresses/latest/csv/adresses-{part}.csv.gz',
  format: 'csv',
  crs: 'EPSG:2154 (x, y) and EPSG:4326 (lon, lat)',
  encoding: 'utf-8',
  update_frequency: 'weekly',
  tables: ['addresses'],
  sample: 'datasets/fr/ban',
};
