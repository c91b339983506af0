import type { Country } from '../../schemas/common.ts';
import type { Source } from '../source.ts';

/**
 * An OpenStreetMap extract of the country (.osm.pbf, as Geofabrik publishes them per country or
 * province): ODbL, so reusers must keep the licence (share-alike, meta.sources). One source per
 * country (`<cc>.osm`); the jobs reading it name what they take (osm-motorway-junctions).
 */
function osmSource(country: Country): Source {
  return {
    id: `${country}.osm`,
    country,
    name: 'OpenStreetMap extract (.osm.pbf)',
    producer: 'OpenStreetMap contributors',
    licence: 'ODbL 1.0',
    licence_url: 'https://opendatacommons.org/licenses/odbl/1-0/',
    attribution: '© OpenStreetMap contributors, ODbL 1.0 (openstreetmap.org/copyright)',
    url: 'https://www.openstreetmap.org/copyright',
    download_url: null,
    format: 'osm_pbf',
    crs: 'EPSG:4326',
    encoding: 'binary (protocol buffers; UTF-8 strings)',
    update_frequency: 'daily',
    tables: ['places'],
    sample: `datasets/${country}/osm`,
  };
}

export const frOsmSource = osmSource('fr');
export const caOsmSource = osmSource('ca');
export const beOsmSource = osmSource('be');
export const OSM_SOURCES: Readonly<Record<Country, Source>> = { fr: frOsmSource, ca: caOsmSource, be: beOsmSource };
