import type { Country } from '../../../../schemas/common.ts';
import { PLACE_GROUP_CODES, PLACE_GROUPS, type PlaceGroup } from '../../../../schemas/categories.ts';
import type { FieldDef } from '../types.ts';
import { PLACES_RADIUS_M, PLACES_TABLE } from './resolve.ts';

/**
 * The sources feeding each group of a country's places table (the jobs writing `places`: which
 * category each writes is in its code, e.g. BPE_CATEGORIES). GTFS feeds are sources named at ingest
 * from their agencies (`<cc>.gtfs.<agencies>`): a field names their family `<cc>.gtfs`, and
 * /catalog/fields lists the feeds ingested (FieldDef.sourcePrefixes). Checked against what the
 * committed samples put under each code (/catalog/categories) in test/api/location/domains/places/fields.test.ts.
 */
export const PLACE_SOURCES: Readonly<Record<Country, Readonly<Record<PlaceGroup, readonly string[]>>>> = {
  fr: { school: ['fr.bpe', 'fr.schools'], health: ['fr.bpe'], shop: ['fr.bpe'], transport: ['fr.airports', 'fr.charging', 'fr.fuel', 'fr.osm', 'fr.stations'] },
  ca: { school: ['ca.schools'], health: ['ca.health'], shop: [], transport: ['ca.airports', 'ca.osm'] },
  be: { school: ['be.schools-fwb', 'be.schools-vl'], health: ['be.health-afmps'], shop: [], transport: ['be.airports', 'be.osm'] },
};

/** The family of a country's GTFS feeds (their ids start with it and a dot). */
export const gtfsFamily = (country: Country) => `${country}.gtfs`;

/** Territories where a group is completely published, when not the whole country (Source.places_complete_in). */
export const PLACE_TERRITORIES: Partial<Record<Country, Partial<Record<PlaceGroup, string[]>>>> = {
  // The FWB register (French-language schools) and the Flemish one together; the German-speaking Community's schools are in neither.
  be: { school: ['Flemish Region', 'Brussels-Capital Region', 'Walloon Region except the German-speaking Community'] },
};

const COUNTRIES: Country[] = ['fr', 'ca', 'be'];

/** Said of a field no source of the country backs yet (test/api/location/domains/parity.test.ts). */
export const PENDING = {
  fr: ' Aucune source de ce pays n’est encore intégrée (not ingested yet).',
  en: ' No source of this country is ingested yet (not ingested yet).',
};

const GROUP_TEXT: Record<PlaceGroup, { fr: string; en: string }> = {
  school: { fr: 'établissements d’enseignement (maternelle, élémentaire, secondaire, formation, supérieur)', en: 'education places (kindergarten, primary, secondary, training, higher education)' },
  health: { fr: 'lieux de santé (pharmacies, médecins, hôpitaux)', en: 'health places (pharmacies, doctors, hospitals)' },
  shop: { fr: 'commerces du quotidien (supermarchés, supérettes, boulangeries, boucheries)', en: 'everyday shops (supermarkets, convenience stores, bakeries, butchers)' },
  transport: { fr: 'lieux de transport (arrêts et stations, gares, aéroports, accès autoroutiers, stations-service, bornes de recharge)', en: 'transport places (stops and stations, train stations, airports, motorway accesses, fuel and charging stations)' },
};

const RADIUS = {
  fr: `dans le rayon (radius, 100 à 2000 m, ${PLACES_RADIUS_M} par défaut), à vol d’oiseau`,
  en: `within the radius (radius, 100 to 2000 m, default ${PLACES_RADIUS_M}), as the crow flies`,
};
const ONCE = {
  fr: 'Un lieu publié par plusieurs sources (une gare dans un flux GTFS et dans la liste des gares, une école de la BPE et de l’annuaire) est compté et servi une fois: même catégorie, à 50 m au plus (300 m pour les gares et aéroports), noms concordants ou l’un sans nom et de sources différentes (docs/places.md).',
  en: 'A place published by several sources (a station in a GTFS feed and in the station list, a school in the BPE and in the directory) is counted and served once: same category, at most 50 m apart (300 m for train stations and airports), matching names or one nameless and from different sources (docs/places.md).',
};

/** Field ids and source lists of the places domain in a country. */
function placesFields(country: Country): FieldDef[] {
  const groups = PLACE_SOURCES[country];
  const territoriesOf = (g: PlaceGroup) => PLACE_TERRITORIES[country]?.[g];
  const all = [...new Set(PLACE_GROUP_CODES.flatMap((g) => groups[g]))].sort();
  const counts: FieldDef[] = PLACE_GROUP_CODES.map((g) => {
    const territories = territoriesOf(g);
    const partial = territories ? {
      fr: ` Publiés en entier seulement dans: ${territories.join(', ')}; ailleurs le nombre est null (not_covered), jamais le nombre d’une partie.`,
      en: ` Completely published only in: ${territories.join(', ')}; elsewhere the count is null (not_covered), never the count of a part.`,
    } : { fr: '', en: '' };
    const pending = groups[g].length === 0 && g !== 'transport' ? PENDING : { fr: '', en: '' };
    return {
      id: `places.counts.${g}`, domain: 'places', label: { fr: `Nombre de lieux: ${PLACE_GROUPS[g].fr.toLowerCase()}`, en: `Number of places: ${PLACE_GROUPS[g].en.toLowerCase()}` }, unit: 'count',
      sources: [...groups[g]], sourcePrefixes: g === 'transport' ? [gtfsFamily(country)] : undefined, table: PLACES_TABLE, countries: [country], territories,
      definition: {
        fr: `Nombre de ${GROUP_TEXT[g].fr} ${RADIUS.fr}, quel que soit le filtre category. ${ONCE.fr} null (unavailable) tant qu’aucune source du groupe n’est intégrée dans le pays.${partial.fr}${pending.fr}`,
        en: `Number of ${GROUP_TEXT[g].en} ${RADIUS.en}, whatever the category filter. ${ONCE.en} null (unavailable) while no source of the group is ingested for the country.${partial.en}${pending.en}`,
      },
    };
  });
  const items: FieldDef = {
    id: 'places.items', domain: 'places', label: { fr: 'Lieux autour', en: 'Places around' }, unit: null,
    sources: all, sourcePrefixes: [gtfsFamily(country)], table: PLACES_TABLE, countries: [country],
    definition: {
      fr: `Lieux ${RADIUS.fr}, du plus proche au plus éloigné (égalité: identifiant): id plc_ stable, category (GET /catalog/categories), name tel que publié (null quand la source n’en publie pas, la BPE), address, position, distance_m (mètres, arrondie), walk_minutes (distance à 80 m par minute, arrondie au-dessus), lines (noms courts des lignes des arrêts de transport, liste vide quand le flux ne publie pas de courses; null pour les autres lieux). ${ONCE.fr} Le lieu servi est le plus proche de ses doublons, avec les lignes de tous. category filtre par groupe ou catégorie; page et per_page (jusqu’à 100) découpent la liste; un rapport en sert la première page.`,
      en: `Places ${RADIUS.en}, nearest first (ties: identifier): stable plc_ id, category (GET /catalog/categories), name as published (null when the source publishes none, the BPE), address, position, distance_m (meters, rounded), walk_minutes (distance at 80 m per minute, rounded up), lines (short names of the lines of transport stops, an empty list when the feed publishes no trips; null for other places). ${ONCE.en} The place served is the nearest of its twins, with the lines of all. category filters by group or category; page and per_page (up to 100) cut the list; a report serves its first page.`,
    },
  };
  return [...counts, items];
}

/** Fields of the places domain (spec 2.11; issue 16) in the three countries. */
export const PLACES_FIELDS: FieldDef[] = COUNTRIES.flatMap(placesFields);
