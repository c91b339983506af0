import type { Country } from '../../../../schemas/common.ts';
import type { FieldDef } from '../types.ts';
import { gtfsFamily, PENDING, PLACE_SOURCES, PLACE_TERRITORIES } from '../places/fields.ts';
import { PLACES_RADIUS_M, PLACES_TABLE } from '../places/resolve.ts';
import { ACCESS_LIST_ITEMS } from './resolve.ts';

/** The sources of each kind of place access reads, per country (a subset of the places sources: PLACE_SOURCES). */
const KIND_SOURCES: Readonly<Record<Country, Readonly<Record<'station' | 'airport' | 'highway_access' | 'fuel' | 'charging', readonly string[]>>>> = {
  fr: { station: ['fr.stations'], airport: ['fr.airports'], highway_access: ['fr.osm'], fuel: ['fr.fuel'], charging: ['fr.charging'] },
  ca: { station: [], airport: ['ca.airports'], highway_access: ['ca.osm'], fuel: [], charging: [] },
  be: { station: [], airport: ['be.airports'], highway_access: ['be.osm'], fuel: [], charging: [] },
};

type Text = { fr: string; en: string };
const KINDS: Record<'station' | 'airport' | 'highway_access' | 'fuel' | 'charging', { code: string; nearest: Text; one: Text; list: Text }> = {
  station: { code: 'transport.train_station', nearest: { fr: 'Gare la plus proche', en: 'Nearest train station' }, one: { fr: 'la gare ferroviaire la plus proche du point', en: 'the train station nearest to the point' }, list: { fr: 'Gares', en: 'Train stations' } },
  airport: { code: 'transport.airport', nearest: { fr: 'Aéroport le plus proche', en: 'Nearest airport' }, one: { fr: 'l’aéroport (grand ou moyen, avec des vols réguliers) le plus proche du point', en: 'the airport (large or medium, with scheduled service) nearest to the point' }, list: { fr: 'Aéroports', en: 'Airports' } },
  highway_access: { code: 'transport.highway_access', nearest: { fr: 'Accès autoroutier le plus proche', en: 'Nearest motorway access' }, one: { fr: 'l’accès autoroutier (sortie ou échangeur, ses bretelles groupées) le plus proche du point', en: 'the motorway access (exit or junction, its slip roads grouped) nearest to the point' }, list: { fr: 'Accès autoroutiers', en: 'Motorway accesses' } },
  fuel: { code: 'transport.fuel', nearest: { fr: 'Station-service la plus proche', en: 'Nearest fuel station' }, one: { fr: 'la station-service la plus proche du point', en: 'the fuel station nearest to the point' }, list: { fr: 'Stations-service', en: 'Fuel stations' } },
  charging: { code: 'transport.charging_station', nearest: { fr: 'Station de recharge la plus proche', en: 'Nearest charging station' }, one: { fr: 'la station de recharge (ses points de charge groupés) la plus proche du point', en: 'the charging station (its charging points grouped) nearest to the point' }, list: { fr: 'Stations de recharge', en: 'Charging stations' } },
};

const PLACE = {
  fr: 'Un lieu (Place: id, category, name, address, position, distance_m, walk_minutes, lines) servi une fois quand plusieurs sources le publient (docs/places.md)',
  en: 'A place (Place: id, category, name, address, position, distance_m, walk_minutes, lines) served once when several sources publish it (docs/places.md)',
};
const NONE = {
  fr: 'null (unavailable) tant qu’aucune source de ce genre de lieu n’est intégrée dans le pays',
  en: 'null (unavailable) while no source of that kind of place is ingested for the country',
};

function accessFields(country: Country): FieldDef[] {
  const s = KIND_SOURCES[country];
  // Stations: the station list where there is one, and the train stations of the GTFS feeds (rail routes).
  const withFeeds = (kind: keyof typeof KINDS) => (kind === 'station' ? [gtfsFamily(country)] : undefined);
  const nearest = (key: string, kind: keyof typeof KINDS): FieldDef => ({
    id: `access.nearest.${key}`, domain: 'access', label: KINDS[kind].nearest,
    unit: null, sources: [...s[kind]], sourcePrefixes: withFeeds(kind), table: PLACES_TABLE, countries: [country],
    definition: {
      fr: `${PLACE.fr}: ${KINDS[kind].one.fr} (${KINDS[kind].code}), à vol d’oiseau et aussi loin qu’il le faut dans le pays, au-delà du rayon. ${NONE.fr}.${pending(kind).fr}`,
      en: `${PLACE.en}: ${KINDS[kind].one.en} (${KINDS[kind].code}), as the crow flies and however far within the country, beyond the radius. ${NONE.en}.${pending(kind).en}`,
    },
  });
  const pending = (kind: keyof typeof KINDS) => (s[kind].length === 0 && !withFeeds(kind) ? PENDING : { fr: '', en: '' });
  const list = (key: string, kind: keyof typeof KINDS): FieldDef => ({
    id: `access.${key}`, domain: 'access', label: KINDS[kind].list, unit: null, sources: [...s[kind]], sourcePrefixes: withFeeds(kind), table: PLACES_TABLE, countries: [country],
    definition: {
      fr: `${KINDS[kind].list.fr} (${KINDS[kind].code}) dans le rayon (radius, 100 à 2000 m, ${PLACES_RADIUS_M} par défaut), du plus proche au plus éloigné, ${ACCESS_LIST_ITEMS} au plus; ${PLACE.fr.charAt(0).toLowerCase()}${PLACE.fr.slice(1)}. Liste vide (not_found) quand il n’y en a aucun dans le rayon; vide (unavailable) tant qu’aucune source n’est intégrée dans le pays.${pending(kind).fr}`,
      en: `${KINDS[kind].list.en} (${KINDS[kind].code}) within the radius (radius, 100 to 2000 m, default ${PLACES_RADIUS_M}), nearest first, at most ${ACCESS_LIST_ITEMS}; ${PLACE.en.charAt(0).toLowerCase()}${PLACE.en.slice(1)}. An empty list (not_found) when there is none within the radius; empty (unavailable) while no source is ingested for the country.${pending(kind).en}`,
    },
  });
  const schools = PLACE_SOURCES[country].school;
  const territories = PLACE_TERRITORIES[country]?.school;
  const school: FieldDef = {
    id: 'access.nearest.school', domain: 'access', label: { fr: 'École la plus proche', en: 'Nearest school' }, unit: null,
    sources: [...schools], table: PLACES_TABLE, countries: [country], territories,
    definition: {
      fr: `${PLACE.fr}: l’établissement d’enseignement le plus proche du point (groupe school: maternelle, élémentaire, secondaire, formation, supérieur), aussi loin qu’il le faut dans le pays. ${NONE.fr}.${territories ? ` Publiés en entier seulement dans: ${territories.join(', ')}; ailleurs null (not_covered): l’école publiée la plus proche n’y est peut-être pas la plus proche.` : ''}`,
      en: `${PLACE.en}: the education place nearest to the point (group school: kindergarten, primary, secondary, training, higher education), however far within the country. ${NONE.en}.${territories ? ` Completely published only in: ${territories.join(', ')}; elsewhere null (not_covered): the nearest school published there may not be the nearest one.` : ''}`,
    },
  };
  return [
    nearest('station', 'station'), nearest('airport', 'airport'), nearest('highway_access', 'highway_access'), school,
    list('stations', 'station'), list('airports', 'airport'), list('highway_accesses', 'highway_access'), list('fuel_stations', 'fuel'), list('charging_stations', 'charging'),
  ];
}

/** Fields of the access domain (spec 2.11; issue 16) in the three countries. */
export const ACCESS_FIELDS: FieldDef[] = (['fr', 'ca', 'be'] as Country[]).flatMap(accessFields);
