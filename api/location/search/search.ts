import type { Country, Locale } from '../../../schemas/common.ts';
import type { Warning } from '../../../schemas/domain.ts';
import { GEOCODING_METHODS, type Address, type Geocoding, type Precision } from '../../../schemas/location.ts';
import { labelOf } from '../../../schemas/common.ts';
import type { Clock } from '../../core/clock.ts';
import type { Warehouse } from '../../core/warehouse.ts';
import { normalizeRep, normalizeText, parseAddressQuery, type ParsedAddress } from '../address/index.ts';
import type { Geocoder } from '../geocoder/index.ts';
import { findLocality, findStreet, withTrailingLocality, type OfficialAddress, type StreetMatch } from './official.ts';
import { localityKey } from '../../../schemas/tables/address-key.ts';
import type { ResolvedAddresses } from './resolved.ts';

export interface AddressSearchDeps {
  warehouse: Warehouse;
  resolved: ResolvedAddresses;
  geocoder: Geocoder | null;
  clock: Clock;
}

export interface FoundAddress {
  latitude: number;
  longitude: number;
  precision: Precision;
  address: Address | null;
  geocoding: Geocoding;
  /** Cadastral parcels of the official address, as published. */
  parcels: string[] | null;
  /** Catalogue id of the official address file that answered; null for the geocoder or a resolved address. */
  source: string | null;
  /** The producer's id of the official address found at its number (the BAN id in France); null otherwise. */
  address_id: string | null;
  warnings: Warning[];
}

const MAX_ALTERNATIVES = 5;

/** What the caller of the location route may add to an address (API Adresse's `limit`, `postcode`, `citycode`). */
export interface AddressSearchOptions {
  /** Answers wanted, 1-20: the best and up to limit - 1 ranked alternatives with their score. */
  limit?: number;
  /** Only candidates of this postcode (it replaces a postcode written in the query). */
  postcode?: string;
  /** Only candidates of this commune / municipality code. */
  citycode?: string;
}

/** limit - 1 ranked alternatives: the street's other candidates, best first, each with its own score. */
function rankedAlternatives(street: StreetMatch, kept: OfficialAddress | null, limit: number): Geocoding['alternatives'] {
  const out: Geocoding['alternatives'] = [];
  for (let i = 0; i < street.candidates.length && out.length < limit - 1; i++) {
    const c = street.candidates[i]!;
    if (c === kept) continue;
    out.push({ label: c.label, latitude: c.latitude, longitude: c.longitude, precision: c.number === null ? 'street' : 'address', score: round2(street.scores[i]! * street.streetScore) });
  }
  return out;
}

function officialAddress(a: OfficialAddress): Address {
  return {
    label: a.label,
    street_number: a.number === null ? null : `${a.number}${a.rep ? ` ${a.rep}` : ''}`,
    street_name: a.street,
    zipcode: a.postcode,
    locality: a.locality_name,
  };
}

/** Median of positions, rounded to 7 decimals (about 1 cm). */
function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return Math.round((s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) * 1e7) / 1e7;
}

/** The kept answer among a street's candidates: the number asked when it exists, else the street itself. */
function fromStreet(q: ParsedAddress, street: StreetMatch, query: string, locale: Locale, limit: number | undefined): FoundAddress {
  const { candidates, streetScore } = street;
  // BAN writes suffixes as published ('b', 'bis', 'B'): compare their canonical forms.
  const sameRep = q.number === null ? undefined : candidates.find((c) => c.number === q.number && normalizeRep(c.rep) === (q.rep ?? null));
  // "12 bis" when only "12" is published: the same entrance in most streets, said in a warning.
  const plain = sameRep || q.number === null ? undefined : candidates.find((c) => c.number === q.number && !c.rep);
  const exact = sameRep ?? plain;
  const geocoding = (matched: string, score: number, alternatives: Geocoding['alternatives']): Geocoding => ({
    query, matched, method: 'official_addresses', method_label: labelOf(GEOCODING_METHODS, 'official_addresses', locale), score, alternatives,
  });
  if (exact) {
    const others = candidates.filter((c) => c !== exact && c.number === exact.number && c.locality_code !== exact.locality_code);
    return {
      latitude: exact.latitude, longitude: exact.longitude, precision: 'address', address: officialAddress(exact), parcels: exact.parcels, source: exact.source, address_id: exact.id,
      geocoding: geocoding(exact.label, round2(streetScore), limit !== undefined ? rankedAlternatives(street, exact, limit) : others.slice(0, MAX_ALTERNATIVES).map((o) => ({
        label: o.label, latitude: o.latitude, longitude: o.longitude, precision: 'address' as const, score: round2(streetScore * 0.9),
      }))),
      warnings: plain ? [{ domain: 'location', code: 'suffix_not_found', message: `${q.number} ${q.rep} is not published for ${exact.street}; ${exact.number} is served` }] : [],
    };
  }
  // Street level: the street's points in the best locality; the median point stays on the street.
  const locality = candidates[0]!.locality_code;
  const same = candidates.filter((c) => c.locality_code === locality);
  const lat = median(same.map((c) => c.latitude));
  const lng = median(same.map((c) => c.longitude));
  const first = same[0]!;
  const label = `${first.street} ${first.postcode ?? ''} ${first.locality_name}`.replace(/\s+/g, ' ').trim();
  const warnings: Warning[] = q.number !== null
    ? [{ domain: 'location', code: 'number_not_found', message: `number ${q.number}${q.rep ? ` ${q.rep}` : ''} is not in the official addresses of ${first.street}; position given at the street` }]
    : [];
  return {
    latitude: lat, longitude: lng, precision: 'street',
    address: { label, street_number: null, street_name: first.street, zipcode: first.postcode, locality: first.locality_name },
    parcels: null, source: first.source, address_id: null,
    geocoding: geocoding(label, round2(streetScore * (q.number !== null ? 0.8 : 1)), limit !== undefined ? rankedAlternatives(street, null, limit) : []),
    warnings,
  };
}

/** A locality key is the one asked, or one of its parts ("paris 13e arrondissement" for "paris"). */
const sameLocality = (key: string, asked: string) => key === asked || key.startsWith(`${asked} `);

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Finds an address in the order of spec 2.6: official addresses at the number, then addresses
 * already resolved, then the external geocoder, whose answer is recorded for step 2.
 * Returns null when nothing knows the address (404 address_not_found).
 */
export async function searchAddress(deps: AddressSearchDeps, country: Country, query: string, locale: Locale, opts: AddressSearchOptions = {}): Promise<FoundAddress | null> {
  // A locality of the table named at the end of the query restricts the search to it: a street
  // of another locality never answers (a wrong answer never beats "not found").
  const parsed = parseAddressQuery(query, { country });
  const { q, locality: localityNamed } = await withTrailingLocality(deps.warehouse, country, opts.postcode === undefined ? parsed : { ...parsed, postcode: opts.postcode });
  const filters = { citycode: opts.citycode, postcode: opts.postcode };
  const street = await findStreet(deps.warehouse, country, q, filters);
  if (street && (q.number === null || street.candidates.some((c) => c.number === q.number))) {
    return fromStreet(q, street, query, locale, opts.limit);
  }
  const key = normalizeText(query);
  const resolved = await deps.resolved.find(country, key);
  if (resolved) {
    return {
      latitude: resolved.latitude, longitude: resolved.longitude, precision: resolved.precision, parcels: null, source: null, address_id: null,
      address: { label: resolved.label, street_number: q.number === null ? null : `${q.number}${q.rep ? ` ${q.rep}` : ''}`, street_name: null, zipcode: q.postcode, locality: null },
      geocoding: { query, matched: resolved.label, method: 'resolved_addresses', method_label: labelOf(GEOCODING_METHODS, 'resolved_addresses', locale), score: 1, alternatives: [] },
      warnings: [],
    };
  }
  const warnings: Warning[] = [];
  if (deps.geocoder) {
    const answer = await deps.geocoder.search(query, { limit: opts.limit ?? MAX_ALTERNATIVES + 1, postcode: q.postcode ?? undefined });
    if (Array.isArray(answer)) {
      // The geocoder answers for any country: keep what lies in the one asked (checked by the caller's coverage test).
      // When the query named a locality of the table, an answer placed in another one is dropped.
      const kept = answer.filter((a) => (!localityNamed || !a.city || sameLocality(localityKey(a.city), q.city!)) && (opts.citycode === undefined || a.citycode === opts.citycode));
      const best = kept[0];
      if (best && (best.precision === 'address' || !street)) {
        const found: FoundAddress = {
          // An address's id from the geocoder is the BAN's (the building the RNB links to it is then the address's).
          latitude: best.latitude, longitude: best.longitude, precision: best.precision, parcels: null, source: null, address_id: best.type === 'housenumber' ? best.id : null,
          address: { label: best.label, street_number: best.housenumber ?? null, street_name: best.street ?? null, zipcode: best.postcode ?? null, locality: best.city ?? null },
          geocoding: {
            query, matched: best.label, method: 'geocoder', method_label: labelOf(GEOCODING_METHODS, 'geocoder', locale), score: round2(best.score),
            alternatives: kept.slice(1, opts.limit ?? MAX_ALTERNATIVES + 1).map((a) => ({ label: a.label, latitude: a.latitude, longitude: a.longitude, precision: a.precision, score: round2(a.score) })),
          },
          warnings: [],
        };
        await deps.resolved.record(country, key, { label: best.label, latitude: best.latitude, longitude: best.longitude, precision: best.precision, source: 'geocoder' }, best, deps.clock.now());
        return found;
      }
    } else {
      warnings.push({ domain: 'location', code: 'geocoder_unavailable', message: `the external geocoder did not answer (${answer.reason}); only official addresses were searched` });
    }
  }
  if (street) {
    const r = fromStreet(q, street, query, locale, opts.limit);
    r.warnings.push(...warnings);
    return r;
  }
  // A name alone ("Laval") may be a municipality rather than a street.
  const cityAlone = q.number === null && q.postcode === null && q.city === null && q.street ? { ...q, city: q.street } : null;
  if (!q.street || q.street === q.city || cityAlone) {
    const points = await findLocality(deps.warehouse, country, cityAlone ?? q, filters);
    if (points.length > 0) {
      const first = points[0]!;
      const name = q.arrondissement === null ? first.locality_name.replace(/ \d+(er|e) Arrondissement$/i, '') : first.locality_name;
      return {
        latitude: median(points.map((p) => p.latitude)), longitude: median(points.map((p) => p.longitude)), precision: 'locality', parcels: null, source: first.source, address_id: null,
        address: { label: `${q.postcode ? `${q.postcode} ` : ''}${name}`, street_number: null, street_name: null, zipcode: q.postcode, locality: name },
        geocoding: { query, matched: name, method: 'official_addresses', method_label: labelOf(GEOCODING_METHODS, 'official_addresses', locale), score: 0.5, alternatives: [] },
        warnings,
      };
    }
  }
  if (warnings.length > 0) throw new GeocoderDownError(warnings[0]!.message);
  return null;
}

/** Nothing found locally and the geocoder could not be asked: the address may exist. */
export class GeocoderDownError extends Error {}
