import type { Source } from '../../source.ts';

/**
 * The Flemish Community's register of its schools' sites (Vlaams Ministerie van Onderwijs en Vorming,
 * "Onderwijsaanbod in Vlaanderen en Brussel", list of vestigingsplaatsen downloaded as CSV from
 * data-onderwijs.vlaanderen.be/onderwijsaanbod/lijsten): one row per school (schoolnummer) and site
 * (intern_vplnummer), Lambert 72 coordinates. Dutch-language schools only: complete in the Flemish
 * Region, in Brussels together with the Fédération Wallonie-Bruxelles's register (be.schools-fwb).
 */
export const beSchoolsVlSource: Source = {
  id: 'be.schools-vl',
  country: 'be',
  name: 'Onderwijsaanbod in Vlaanderen en Brussel: vestigingsplaatsen van scholen',
  producer: 'Vlaams Ministerie van Onderwijs en Vorming',
  // The portal's licence was not read (no copy of the list page at hand): Flemish open data is
  // usually under the Modellicentie Gratis Hergebruik; to check on the list page.
  licence: 'Modellicentie Gratis Hergebruik (to check)',
  licence_url: 'https://data-onderwijs.vlaanderen.be/onderwijsaanbod/lijsten',
  attribution: 'Vlaams Ministerie van Onderwijs en Vorming, onderwijsaanbod (data-onderwijs.vlaanderen.be)',
  url: 'https://data-onderwijs.vlaanderen.be/onderwijsaanbod/lijsten',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:31370 (lx, ly: Belgian Lambert 72)',
  encoding: 'utf-8',
  update_frequency: 'yearly',
  tables: ['places'],
  sample: 'datasets/be/schools-vl',
  places_complete_in: {
    group: 'school', administrative_area_level1: ['02000'], together: { administrative_area_level1: ['04000'], with: ['be.schools-fwb'] },
    missing: "the Fédération Wallonie-Bruxelles's schools (Walloon Region and Brussels) are not ingested",
  },
};
