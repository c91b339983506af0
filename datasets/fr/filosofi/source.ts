import type { Source } from '../../source.ts';

/** INSEE Filosofi: disposable income by IRIS (and communes not divided into IRIS) and by commune and municipal arrondissement, declared income by IRIS, one edition a year. */
export const filosofiSource: Source = {
  id: 'fr.filosofi',
  country: 'fr',
  name: 'Revenus, pauvreté et niveau de vie (Filosofi), revenus disponibles par IRIS et par commune, revenus déclarés par IRIS',
  producer: 'INSEE',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'INSEE, Fichier localisé social et fiscal (Filosofi)',
  url: 'https://www.insee.fr/fr/statistiques/5055909',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by IRIS or commune code)',
  encoding: 'utf-8',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/fr/filosofi',
};
