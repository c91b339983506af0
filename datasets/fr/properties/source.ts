import type { Source } from '../../source.ts';

/** The derived source of fr.properties: the service's own attachment of the published sales and diagnoses. */
export const propertiesSource: Source = {
  id: 'fr.properties', country: 'fr', name: 'Biens (rattachement des ventes et diagnostics)', producer: 'this service, from DVF, the DPE and the RNB/BDNB',
  licence: 'Licence Ouverte / Open Licence 2.0', licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/', attribution: 'DGFiP (DVF), ADEME (DPE), RNB, CSTB (BDNB)',
  url: '', download_url: null, format: 'csv', crs: 'none', encoding: 'utf-8', update_frequency: 'irregular', tables: ['properties', 'property_events'], sample: 'datasets/fr/properties',
};
