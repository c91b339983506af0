import type { Source } from '../../source.ts';

/**
 * The Fédération Wallonie-Bruxelles's register of its schools' sites (FASE, "fichier signalétique
 * des établissements d'enseignement", published on ODWB as signaletique-fase): one row per site and
 * type of teaching. French-language schools only: in Brussels the Flemish Community's schools are
 * not in it, in the Flemish Region none are (places counts say so: `places_complete_in`).
 */
export const beSchoolsFwbSource: Source = {
  id: 'be.schools-fwb',
  country: 'be',
  name: "Fichier signalétique des établissements d'enseignement (FASE), Fédération Wallonie-Bruxelles",
  producer: 'Fédération Wallonie-Bruxelles, Administration générale de l\'Enseignement',
  licence: 'CC BY 4.0',
  licence_url: 'https://creativecommons.org/licenses/by/4.0/',
  attribution: "Fédération Wallonie-Bruxelles, fichier signalétique des établissements d'enseignement (ODWB)",
  url: 'https://www.odwb.be/explore/dataset/signaletique-fase/',
  download_url: null,
  format: 'csv',
  crs: 'EPSG:4326',
  encoding: 'utf-8',
  update_frequency: 'yearly',
  tables: ['places'],
  sample: 'datasets/be/schools',
  // The Walloon Region alone; Brussels with the Flemish Community's schools (be.schools-vl); Flanders has only those.
  places_complete_in: {
    group: 'school', administrative_area_level1: ['03000'], together: { administrative_area_level1: ['04000'], with: ['be.schools-vl'] },
    missing: "the Flemish Community's schools (Flemish Region and Brussels) are not ingested",
  },
};
