import type { Country } from '../../../../schemas/common.ts';
import { describe, expect, it, beforeAll } from 'vitest';
import { kinks, polygon } from '@turf/turf';
import {
  countryOf,
  isInCountry,
  preloadCoverage,
} from '../../../../api/location/coverage/index.ts';
import { QUEBEC_APPROX_RING } from '../../../../api/location/coverage/quebec.ts';
import { worldIndex, ISO_NUMERIC } from '../../../../api/location/coverage/outlines.ts';

// Fixtures are [name, lat, lng] as usually written; calls use (lng, lat).
type Place = [name: string, lat: number, lng: number];

const IN_FR: Place[] = [
  ['Paris', 48.8566, 2.3522],
  ['Brest', 48.3904, -4.4861],
  ['Ajaccio', 41.9192, 8.7386],
  ['Strasbourg', 48.5734, 7.7521],
  ['Marseille Vieux-Port', 43.2951, 5.3739],
  ['Menton', 43.7764, 7.5048],
  ['Bonifacio', 41.3874, 9.1596],
  ['Île de Ré', 46.2, -1.42],
  ['Belle-Île, Le Palais', 47.3478, -3.1528],
  ["Île d'Yeu, Port-Joinville", 46.7256, -2.3488],
  ['Saint-Denis (Réunion)', -20.8823, 55.4504],
  ['Cayenne', 4.9224, -52.3135],
  ['Mamoudzou', -12.7806, 45.2279],
  ['Pointe-à-Pitre', 16.2411, -61.5331],
  ['Fort-de-France', 14.6161, -61.0588],
];

const NOT_FR: Place[] = [
  ['Geneva', 46.2044, 6.1432],
  ['Basel', 47.5596, 7.5886],
  ['Brussels', 50.8503, 4.3517],
  ['London', 51.5074, -0.1278],
  ['Andorra la Vella', 42.5063, 1.5218],
  ['Monaco', 43.7384, 7.4246],
  ['Nouméa', -22.2758, 166.458],
  ['Saint-Pierre (SPM)', 46.7811, -56.1764],
  ['Papeete', -17.5516, -149.5585],
  ['Marigot (Saint-Martin, not a DROM)', 18.0676, -63.0827],
  ['Bay of Biscay, 40 km offshore', 46.0, -2.0],
];

const IN_BE: Place[] = [
  ['Brussels', 50.8503, 4.3517],
  ['Ixelles', 50.8333, 4.3667],
  ['Antwerp', 51.2194, 4.4025],
  ['Liège', 50.6326, 5.5797],
  ['Arlon', 49.6833, 5.8167],
  ['Ostend', 51.2154, 2.9286],
];

const NOT_BE: Place[] = [
  ['Lille', 50.6292, 3.0573],
  ['Maastricht', 50.8514, 5.691],
  ['Luxembourg', 49.6116, 6.1319],
  ['Paris', 48.8566, 2.3522],
];

const IN_QC: Place[] = [
  ['Montreal', 45.5017, -73.5673],
  ['Quebec City', 46.8139, -71.208],
  ['Gatineau', 45.4765, -75.7013],
  ['Grenville', 45.6264, -74.5987],
  ['Salaberry-de-Valleyfield', 45.25, -74.1333],
  ['Sherbrooke', 45.4042, -71.8929],
  ['Rouyn-Noranda', 48.2366, -79.0231],
  ['Ville-Marie (Témiscamingue)', 47.3333, -79.4333],
  ['Gaspé', 48.8316, -64.4869],
  ['Sept-Îles', 50.2169, -66.381],
  ['Cap-aux-Meules (Magdalen Islands)', 47.3772, -61.8597],
  ['Blanc-Sablon', 51.4264, -57.1314],
  ['Fermont', 52.793, -67.0857],
  ['Schefferville', 54.8, -66.8167],
  ['Chisasibi', 53.7836, -78.9075],
  ['Kuujjuarapik', 55.2816, -77.7653],
  ['Kuujjuaq', 58.103, -68.399],
];

const NOT_QC: Place[] = [
  ['Ottawa, Parliament Hill (ON)', 45.4236, -75.7009],
  ['Hawkesbury (ON)', 45.6076, -74.6052],
  ['Cornwall (ON)', 45.0213, -74.7303],
  ['Toronto (ON)', 43.6532, -79.3832],
  ['Moosonee (ON)', 51.2794, -80.6463],
  ['Edmundston (NB)', 47.373, -68.3251],
  ['Campbellton (NB)', 48.0075, -66.6727],
  ['Charlottetown (PEI)', 46.2382, -63.1311],
  ['Corner Brook (NL)', 48.95, -57.95],
  ['Labrador City (NL)', 52.9463, -66.9114],
  ['Sanikiluaq, Belcher Islands (NU)', 56.5416, -79.2247],
  ['Iqaluit (NU)', 63.7467, -68.517],
  ['Vancouver (BC)', 49.2827, -123.1207],
  ['Burlington (VT, USA)', 44.4759, -73.2121],
  ['Newport (VT, USA)', 44.9364, -72.2051],
  ['Plattsburgh (NY, USA)', 44.6995, -73.4529],
  ['Paris', 48.8566, 2.3522],
];

function check(country: Country, places: Place[], expected: boolean) {
  for (const [name, lat, lng] of places) {
    it(`${name} ${expected ? 'is' : 'is not'} ${country}`, () => {
      expect(isInCountry(country, lng, lat)).toBe(expected);
    });
  }
}

beforeAll(() => preloadCoverage());

describe('Natural Earth France feature', () => {
  it('holds metropolitan France and the five DROM, nothing else', () => {
    const polys = worldIndex().byCountry.get(ISO_NUMERIC.fr) ?? [];
    const has = (lng: number, lat: number) =>
      polys.some((p) => lng >= p.bbox[0] && lng <= p.bbox[2] && lat >= p.bbox[1] && lat <= p.bbox[3]);
    expect(has(2.35, 48.86)).toBe(true); // metropole
    expect(has(9.0, 42.0)).toBe(true); // Corsica
    expect(has(-61.53, 16.24)).toBe(true); // Guadeloupe
    expect(has(-61.06, 14.62)).toBe(true); // Martinique
    expect(has(-52.31, 4.92)).toBe(true); // Guyane
    expect(has(55.45, -20.88)).toBe(true); // Réunion
    expect(has(45.15, -12.8)).toBe(true); // Mayotte
    // Every polygon must lie in one of those areas (no SPM, Pacific, TAAF...).
    for (const p of polys) {
      const [x0, y0] = p.bbox;
      const ok =
        (x0 > -6 && y0 > 41) || (x0 > -62 && x0 < -60 && y0 > 14) || (x0 > -55 && x0 < -51) || x0 > 44;
      expect(ok).toBe(true);
      expect(p.bbox[0] > -57 && p.bbox[0] < -55 && p.bbox[1] > 46).toBe(false);
    }
  });
});

describe('isInCountry fr', () => {
  check('fr', IN_FR, true);
  check('fr', NOT_FR, false);
});

describe('isInCountry be', () => {
  check('be', IN_BE, true);
  check('be', NOT_BE, false);
});

describe('isInCountry ca (Quebec only)', () => {
  check('ca', IN_QC, true);
  check('ca', NOT_QC, false);

  it('the hand-built Quebec ring does not self-intersect', () => {
    const ring = QUEBEC_APPROX_RING.map(([x, y]) => [x, y]);
    ring.push([...ring[0]]);
    expect(kinks(polygon([ring])).features).toHaveLength(0);
  });

  it('the hand-built Quebec ring is a list of [lng, lat] around Quebec', () => {
    for (const [lng, lat] of QUEBEC_APPROX_RING) {
      expect(lng).toBeGreaterThan(-80);
      expect(lng).toBeLessThan(-57);
      expect(lat).toBeGreaterThan(44);
      expect(lat).toBeLessThan(63);
    }
  });
});

describe('coastal tolerance', () => {
  it('accepts a point a few hundred metres off a generalised coast', () => {
    // Central Menton is 1.5-2 km outside the generalised Natural Earth coast.
    expect(isInCountry('fr', 7.5048, 43.7764)).toBe(true);
  });
  it('rejects a point well out at sea', () => {
    expect(isInCountry('fr', 7.25, 43.6)).toBe(false); // Baie des Anges, ~7 km off Nice
  });
  it('does not leak across land borders', () => {
    expect(isInCountry('fr', 7.4246, 43.7384)).toBe(false); // Monaco
    expect(isInCountry('be', 3.0573, 50.6292)).toBe(false); // Lille
  });
});

describe('countryOf', () => {
  it('answers the right territory or null', () => {
    expect(countryOf(2.3522, 48.8566)).toBe('fr');
    expect(countryOf(4.3517, 50.8503)).toBe('be');
    expect(countryOf(-73.5673, 45.5017)).toBe('ca');
    expect(countryOf(-75.7009, 45.4236)).toBeNull();
    expect(countryOf(-0.1278, 51.5074)).toBeNull();
    expect(countryOf(0, 0)).toBeNull();
  });
  it('rejects invalid coordinates', () => {
    expect(countryOf(Number.NaN, 48)).toBeNull();
    expect(isInCountry('fr', 2.35, 200)).toBe(false);
  });
  it('is fast once loaded', () => {
    const t0 = performance.now();
    for (let i = 0; i < 2000; i++) countryOf(2.3522 + (i % 10) * 0.01, 48.8566);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
