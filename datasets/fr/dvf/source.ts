import type { Source } from '../../source.ts';

/** Etalab's geolocated DVF: one CSV per year and department, published twice a year (April, October). */
export const dvfSource: Source = {
  id: 'fr.dvf',
  country: 'fr',
  name: 'Demandes de valeurs foncières géolocalisées (DVF)',
  producer: 'DGFiP; geolocated by Etalab (DINUM)',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'Demandes de valeurs foncières, DGFiP; géolocalisation Etalab',
  url: 'https://www.data.gouv.fr/fr/datasets/demandes-de-valeurs-foncieres-geolocalisees/',
  // {part} is <year>/<department>: e.g. 2024/33.
  download_url: 'https://files.data.gouv.fr/geo-dvf/latest/csv/{year}/departements/{department}.csv.gz',
  format: 'csv',
  crs: 'EPSG:4326 (longitude, latitude: centre of the parcel)',
  encoding: 'utf-8',
  update_frequency: 'half_yearly',
  tables: ['sales', 'market_indicators'],
  sample: 'datasets/fr/dvf',
};

/** The DGFiP's own yearly text files (ValeursFoncieres-YYYY.txt): no coordinates, French decimals. */
export const dvfRawSource: Source = {
  id: 'fr.dvf-dgfip',
  country: 'fr',
  name: 'Demandes de valeurs foncières (fichiers DGFiP)',
  producer: 'DGFiP',
  licence: 'Licence Ouverte / Open Licence 2.0',
  licence_url: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  attribution: 'Demandes de valeurs foncières, DGFiP',
  url: 'https://www.data.gouv.fr/fr/datasets/demandes-de-valeurs-foncieres/',
  download_url: null,
  format: 'csv',
  crs: 'none (no coordinates; located by commune and parcel codes)',
  encoding: 'utf-8',
  update_frequency: 'half_yearly',
  tables: ['sales', 'market_indicators'],
  sample: 'datasets/fr/dvf/ValeursFoncieres-2025-S1.txt',
};
