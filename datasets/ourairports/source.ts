import type { Country } from '../../schemas/common.ts';
import type { Source } from '../source.ts';

/**
 * OurAirports' world list (airports.csv, ourairports.com/data, documented at
 * ourairports.com/help/data-dictionary.html): one row per airport, public domain, updated daily.
 * One source per country (`<cc>.airports`): the `airports` job keeps the country's rows of the one
 * published file, so meta.sources and the catalog cite it per country as every other source.
 */
function airportsSource(country: Country): Source {
  return {
    id: `${country}.airports`,
    country,
    name: 'OurAirports, airports.csv',
    producer: 'OurAirports (David Megginson and contributors)',
    licence: 'Public domain',
    licence_url: 'https://ourairports.com/data/',
    attribution: 'OurAirports (ourairports.com), public domain',
    url: 'https://ourairports.com/data/',
    download_url: null,
    format: 'csv',
    crs: 'EPSG:4326',
    encoding: 'utf-8',
    update_frequency: 'daily',
    tables: ['places'],
    sample: `datasets/${country}/airports`,
  };
}

export const frAirportsSource = airportsSource('fr');
export const caAirportsSource = airportsSource('ca');
export const beAirportsSource = airportsSource('be');
export const AIRPORTS_SOURCES: Readonly<Record<Country, Source>> = { fr: frAirportsSource, ca: caAirportsSource, be: beAirportsSource };
