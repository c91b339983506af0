import type { Source } from '../../source.ts';

/** The ministry's ABC zoning by commune (article D304-1 of the construction code), revised by decree. */
export const abcZoningSource: Source = {
  id: 'fr.abc-zoning',
  country: 'fr',
  name: 'Liste des communes selon le zonage ABC',
  producer: 'Ministère de la Transition écologique (DGALN)',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'Ministère chargé du logement, zonage ABC',
  url: 'https://www.data.gouv.fr/datasets/liste-des-communes-selon-le-zonage-abc',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by commune code)',
  encoding: 'utf-8 (with a BOM)',
  update_frequency: 'irregular',
  tables: ['zone_values'],
  sample: 'datasets/fr/housing-zones',
};

/** The ministry's TLV zoning by commune: the "zones tendues" of article 232 of the tax code. */
export const tlvZoningSource: Source = {
  id: 'fr.tlv-zoning',
  country: 'fr',
  name: 'Liste des communes selon le zonage TLV (zones tendues)',
  producer: 'Ministère de la Transition écologique (DGALN)',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'Ministère chargé du logement, zonage TLV',
  url: 'https://www.data.gouv.fr/datasets/liste-des-communes-selon-le-zonage-tlv-1',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by commune code)',
  encoding: 'utf-8 (with a BOM)',
  update_frequency: 'irregular',
  tables: ['zone_values'],
  sample: 'datasets/fr/housing-zones',
};

/**
 * Communes under rent control. No producer publishes it as data: the list is the official page's,
 * kept by the operator in this service's own layout (code_insee;nom_commune;territoire;perimetre;debut;fin).
 */
export const rentControlSource: Source = {
  id: 'fr.rent-control',
  country: 'fr',
  name: 'Encadrement des loyers: communes concernées',
  producer: 'Service-Public.fr (DILA), list kept by the operator',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: "Service-Public.fr, encadrement des loyers (liste relevée par l'opérateur)",
  url: 'https://www.service-public.gouv.fr/particuliers/vosdroits/F1314',
  download_url: null,
  format: 'csv',
  crs: 'none (joined by commune code)',
  encoding: 'utf-8',
  update_frequency: 'irregular',
  tables: ['zone_values'],
  sample: 'datasets/fr/housing-zones',
};
