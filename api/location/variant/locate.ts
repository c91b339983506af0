import { COUNTRIES } from '../../../datasets/countries.ts';
import type { Country, Locale } from '../../../schemas/common.ts';
import type { Warning } from '../../../schemas/domain.ts';
import type { Location } from '../../../schemas/location.ts';
import { GEOCODING_METHODS } from '../../../schemas/location.ts';
import { labelOf } from '../../../schemas/common.ts';
import type { VariantCountry } from '../../../schemas/variant.ts';
import { ApiError } from '../../core/errors.ts';
import { normalizeText, parseAddressQuery } from '../address/index.ts';
import { countryOf } from '../coverage/index.ts';
import { locate, type LocateDeps } from '../locate.ts';
import type { PlaceInput } from '../params.ts';
import { findLocality, findStreet } from '../search/official.ts';
import { toVariantCountry, variantPrecision } from './map.ts';


/** What the official addresses of one country make of a query: how precisely, and where. */
export interface CountryMatch {
  country: Country;
  /** 3 at the number, 2 at the street, 1 at the municipality. */
  rank: number;
  score: number;
  label: string;
  latitude: number;
  longitude: number;
}

/** The query read against one country's official addresses (no geocoder, nothing recorded). */
export async function officialMatch(deps: LocateDeps, country: Country, address: string): Promise<CountryMatch | null> {
  const q = parseAddressQuery(address, { country });
  const street = await findStreet(deps.warehouse, country, q);
  if (street) {
    const exact = q.number === null ? undefined : street.candidates.find((c) => c.number === q.number);
    const best = exact ?? street.candidates[0]!;
    return { country, rank: exact ? 3 : 2, score: street.streetScore, label: exact ? best.label : `${best.street}, ${best.locality_name}`, latitude: best.latitude, longitude: best.longitude };
  }
  const cityAlone = q.number === null && q.postcode === null && q.city === null && q.street ? { ...q, city: q.street } : null;
  if (!q.street || q.street === q.city || cityAlone) {
    const points = await findLocality(deps.warehouse, country, cityAlone ?? q);
    if (points.length > 0) {
      const p = points[0]!;
      return { country, rank: 1, score: 0.5, label: p.locality_name, latitude: p.latitude, longitude: p.longitude };
    }
  }
  return null;
}

export interface VariantAnswer {
  country: Country;
  location: Location;
  warnings: Warning[];
  sources: string[];
  /** Places of other countries the query may also mean. */
  elsewhere: (CountryMatch & { cc: VariantCountry })[];
}

function mustBeAllowed(country: Country, allowed: readonly Country[]): void {
  if (!allowed.includes(country)) throw new ApiError('country_not_allowed', `this key is not opened for country ${country.toUpperCase()}`, { country: country.toUpperCase() });
}

/**
 * The place of the multi-country variant (spec 4.5): a position belongs to the covered country
 * containing it; an address is searched in the official addresses of each country first (the
 * most precise answer wins; the same precision in two countries is answered with the others as
 * alternatives, unless `country` says which), then in the geocoder.
 */
export async function locateAnywhere(deps: LocateDeps, input: PlaceInput, country: Country | null, allowed: readonly Country[], locale: Locale): Promise<VariantAnswer> {
  if (country) {
    mustBeAllowed(country, allowed);
    return { country, ...await locate(deps, country, input, locale), elsewhere: [] };
  }
  if (input.kind === 'position') {
    const c = countryOf(input.lng, input.lat);
    if (!c) throw new ApiError('outside_coverage', 'position outside the covered countries: France (with overseas departments), Quebec, Belgium', {});
    mustBeAllowed(c, allowed);
    return { country: c, ...await locate(deps, c, input, locale), elsewhere: [] };
  }
  const matches = (await Promise.all(COUNTRIES.map((c) => officialMatch(deps, c, input.address)))).filter((m): m is CountryMatch => m !== null);
  if (matches.length > 0) {
    const top = Math.max(...matches.map((m) => m.rank));
    // The countries the key opens come first among equally precise answers.
    const best = matches.filter((m) => m.rank === top)
      .sort((a, b) => Number(allowed.includes(b.country)) - Number(allowed.includes(a.country)) || b.score - a.score || COUNTRIES.indexOf(a.country) - COUNTRIES.indexOf(b.country));
    const chosen = best[0]!;
    mustBeAllowed(chosen.country, allowed);
    const answer = await locate(deps, chosen.country, input, locale);
    const elsewhere = best.slice(1).filter((m) => m.country !== chosen.country).map((m) => ({ ...m, cc: toVariantCountry(m.country) }));
    if (elsewhere.length > 0) {
      answer.warnings.push({ domain: 'location', code: 'ambiguous_country', message: `the address also exists in ${elsewhere.map((e) => e.cc).join(', ')}; send country to choose (alternatives in data.location.geocoding)` });
    }
    return { country: chosen.country, ...answer, elsewhere };
  }
  // Nowhere in the official addresses: an address the service resolved before (spec 2.6, step 2), in any country.
  const key = normalizeText(input.address);
  for (const c of COUNTRIES) {
    const r = await deps.resolved.find(c, key);
    if (!r) continue;
    mustBeAllowed(c, allowed);
    const at = await locate(deps, c, { kind: 'position', lat: r.latitude, lng: r.longitude }, locale);
    const location: Location = {
      ...at.location, precision: r.precision,
      address: { label: r.label, street_number: null, street_name: null, zipcode: null, locality: null },
      geocoding: { query: input.address, matched: r.label, method: 'resolved_addresses', method_label: labelOf(GEOCODING_METHODS, 'resolved_addresses', locale), score: 1, alternatives: [] },
    };
    return { country: c, location, warnings: at.warnings, sources: at.sources, elsewhere: [] };
  }
  // Then the geocoder, once, for all countries; its answer is recorded for the next time.
  if (deps.geocoder) {
    const answer = await deps.geocoder.search(input.address, { limit: 6 });
    if (!Array.isArray(answer)) {
      throw new ApiError('address_not_found', `address not found in the official addresses, and the geocoder is unavailable (${answer.reason}); resend with coordinates`, { address: input.address, geocoder: 'unavailable' });
    }
    const hit = answer.find((a) => countryOf(a.longitude, a.latitude) !== null);
    if (hit) {
      const c = countryOf(hit.longitude, hit.latitude)!;
      mustBeAllowed(c, allowed);
      const at = await locate(deps, c, { kind: 'position', lat: hit.latitude, lng: hit.longitude }, locale);
      await deps.resolved.record(c, key, { label: hit.label, latitude: hit.latitude, longitude: hit.longitude, precision: hit.precision, source: 'geocoder' }, hit, deps.clock.now());
      const location: Location = {
        ...at.location,
        precision: hit.precision,
        precision_label: at.location.precision_label,
        address: { label: hit.label, street_number: hit.housenumber, street_name: hit.street, zipcode: hit.postcode, locality: hit.city },
        geocoding: {
          query: input.address, matched: hit.label, method: 'geocoder', method_label: labelOf(GEOCODING_METHODS, 'geocoder', locale), score: Math.round(hit.score * 100) / 100,
          alternatives: answer.filter((a) => a !== hit && countryOf(a.longitude, a.latitude) === c).slice(0, 5)
            .map((a) => ({ label: a.label, latitude: a.latitude, longitude: a.longitude, precision: a.precision, score: Math.round(a.score * 100) / 100 })),
        },
      };
      return { country: c, location, warnings: at.warnings, sources: at.sources, elsewhere: [] };
    }
    if (answer.length > 0) throw new ApiError('outside_coverage', 'the address is outside the covered countries: France (with overseas departments), Quebec, Belgium', { address: input.address });
  }
  throw new ApiError('address_not_found', 'address not found in the official addresses of France, Belgium or Quebec; resend with coordinates', { address: input.address });
}

/** Alternatives in other countries, as geocoding alternatives of the variant. */
export function elsewhereAlternatives(elsewhere: VariantAnswer['elsewhere']) {
  return elsewhere.map((e) => ({
    label: e.label, latitude: e.latitude, longitude: e.longitude, score: Math.round(e.score * 100) / 100, country: e.cc,
    precision: variantPrecision(e.rank === 3 ? 'address' : e.rank === 2 ? 'street' : 'locality'),
  }));
}

