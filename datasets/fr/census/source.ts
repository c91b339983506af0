import type { Source } from '../../source.ts';

/**
 * INSEE census, "bases infracommunales" by IRIS (and communes not divided into IRIS): the housing
 * file (base-ic-logement-<year>) and the couples-families-households file
 * (base-ic-couples-familles-menages-<year>), one edition a year (rolling five-year collection).
 */
export const censusSource: Source = {
  id: 'fr.census',
  country: 'fr',
  name: 'Recensement de la population, bases infracommunales (IRIS): logement; couples, familles, ménages',
  producer: 'INSEE',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'INSEE, Recensement de la population, exploitations principale et complémentaire',
  url: 'https://www.insee.fr/fr/statistiques/6543200',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by IRIS code)',
  encoding: 'utf-8',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/fr/census',
};
