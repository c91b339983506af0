import type { Source } from '../../source.ts';

/** CMHC's Rental Market Survey, as the Housing Market Information Portal (HMIP) exports its tables. */
export const cmhcSource: Source = {
  id: 'ca.cmhc',
  country: 'ca',
  name: 'Rental Market Survey (HMIP CSV exports): average rents and vacancy rates by zone and bedroom type',
  producer: 'Canada Mortgage and Housing Corporation (CMHC)',
  licence: 'CMHC Housing Market Information Portal terms of use',
  licence_url: 'https://www.cmhc-schl.gc.ca/en/about-us/terms-conditions',
  attribution: 'Source: CMHC, Rental Market Survey',
  url: 'https://www03.cmhc-schl.gc.ca/hmip-pimh/en',
  download_url: null,
  format: 'csv',
  crs: 'none (zones by name, matched to the rental-survey neighbourhoods of the zones table)',
  encoding: 'windows-1252',
  update_frequency: 'yearly',
  tables: ['zone_values'],
  sample: 'datasets/ca/cmhc',
};
