import type { Geometry } from 'geojson';
import { describe, expect, it } from 'vitest';
import { fromWgs84, reprojectGeometry, toWgs84, SUPPORTED_EPSG } from '../../../ingest/core/reproject.ts';

describe('toWgs84', () => {
  it('Lambert-93: a real BAN row (Rue Gérard, Paris 13e)', () => {
    const [lng, lat] = toWgs84('EPSG:2154')([652478.29, 6859057.21]);
    expect(Math.abs(lng - 2.352659)).toBeLessThan(1e-6);
    expect(Math.abs(lat - 48.829819)).toBeLessThan(1e-6);
    expect(toWgs84('urn:ogc:def:crs:EPSG::2154')([652478.29, 6859057.21])).toEqual([lng, lat]);
  });

  it('Lambert-93 projection origin (700000, 6600000) is 3°E 46.5°N', () => {
    const [lng, lat] = toWgs84('EPSG:2154')([700000, 6600000]);
    expect(lng).toBeCloseTo(3, 7);
    expect(lat).toBeCloseTo(46.5, 7);
  });

  it('Belgian Lambert 72: Brussels Grand-Place round trip', () => {
    const grandPlace: [number, number] = [4.3525, 50.8467];
    const [x, y] = fromWgs84('EPSG:31370')(grandPlace);
    // NGI grid: Grand-Place is around x 148 900, y 170 700
    expect(Math.abs(x - 148_900)).toBeLessThan(200);
    expect(Math.abs(y - 170_700)).toBeLessThan(200);
    const [lng, lat] = toWgs84('EPSG:31370')([x, y]);
    expect(Math.abs(lng - grandPlace[0])).toBeLessThan(1e-6);
    expect(Math.abs(lat - grandPlace[1])).toBeLessThan(1e-6);
  });

  it('Belgian Lambert 2008 false origin is its defining point (ETRS89 = WGS84)', () => {
    expect(toWgs84('EPSG:3812')([649328, 665262])).toEqual([4.3592158, 50.797815]);
  });

  it('Quebec Lambert: origin is 68.5°W 44°N, Montréal round trip', () => {
    expect(toWgs84('EPSG:32198')([0, 0])).toEqual([-68.5, 44]);
    const montreal: [number, number] = [-73.5673, 45.5017];
    const xy = fromWgs84('EPSG:32198')(montreal);
    expect(xy[0]).toBeLessThan(-300_000); // west of the central meridian
    const back = toWgs84('EPSG:32198')(xy);
    expect(Math.abs(back[0] - montreal[0])).toBeLessThan(1e-6);
    expect(Math.abs(back[1] - montreal[1])).toBeLessThan(1e-6);
  });

  it('round-trips every registered projected CRS near its area of use', () => {
    const samples: Record<number, [number, number]> = {
      5490: [-61.53, 16.24], // Pointe-à-Pitre
      2972: [-52.33, 4.94], // Cayenne
      2975: [55.45, -20.88], // Saint-Denis (Réunion)
      4471: [45.23, -12.78], // Mamoudzou
      3347: [-75.69, 45.42], // Ottawa
      3857: [2.35, 48.85],
      32631: [2.35, 48.85],
    };
    for (const [code, p] of Object.entries(samples)) {
      const back = toWgs84(`EPSG:${code}`)(fromWgs84(`EPSG:${code}`)(p));
      expect(Math.abs(back[0] - p[0]), `EPSG:${code}`).toBeLessThan(1e-6);
      expect(Math.abs(back[1] - p[1]), `EPSG:${code}`).toBeLessThan(1e-6);
    }
    // UTM 22N false easting: central meridian 51°W
    expect(toWgs84('EPSG:2972')([500000, 0])[0]).toBeCloseTo(-51, 3);
  });

  it('is the identity (rounded to 7 decimals) for geographic CRSs', () => {
    for (const crs of [null, 'EPSG:4326', 'EPSG:4171', 'EPSG:4269', 'EPSG:4617', 'urn:ogc:def:crs:OGC:1.3:CRS84']) {
      expect(toWgs84(crs)([2.123456789, 48.987654321])).toEqual([2.1234568, 48.9876543]);
    }
  });

  it('accepts WKT and rejects unknown codes clearly', () => {
    const wkt =
      'PROJCS["Belge_Lambert_1972",GEOGCS["GCS_Belge_1972",DATUM["D_Belge_1972",SPHEROID["International_1924",6378388.0,297.0]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic"],PARAMETER["False_Easting",150000.013],PARAMETER["False_Northing",5400088.438],PARAMETER["Central_Meridian",4.36748666666667],PARAMETER["Standard_Parallel_1",51.1666672333333],PARAMETER["Standard_Parallel_2",49.8333339],PARAMETER["Latitude_Of_Origin",90.0],UNIT["Meter",1.0]]';
    const [lng, lat] = toWgs84(wkt)([148_855, 170_700]);
    // no datum shift in an ESRI WKT: within ~150 m of the EPSG:31370 result
    const ref = toWgs84('EPSG:31370')([148_855, 170_700]);
    expect(Math.abs(lng - ref[0])).toBeLessThan(0.003);
    expect(Math.abs(lat - ref[1])).toBeLessThan(0.003);
    expect(() => toWgs84('EPSG:999999')).toThrow(/^Unknown CRS EPSG:999999: not in the EPSG registry/);
    expect(() => toWgs84('EPSG:5703')).toThrow(/^CRS EPSG:5703 \(NAVD88 height\) is a vertcrs CRS, not a horizontal one/);
    expect(SUPPORTED_EPSG).toEqual(expect.arrayContaining([2154, 4326, 4171, 5490, 2972, 2975, 4471, 31370, 3812, 32198, 3347, 4269, 4617]));
  });
});

describe('any CRS of the EPSG registry (epsg-index)', () => {
  it('reads ETRS89-extended / LAEA Europe (EPSG:3035), as Eurostat grids publish it', () => {
    // The worked example of the EPSG Guidance Note 7-2 for this projection: 50°N 5°E.
    expect(toWgs84('EPSG:3035')([3962799.45, 2999718.85])).toEqual([5, 50]);
    expect(toWgs84('urn:ogc:def:crs:EPSG::3035')([3962799.45, 2999718.85])).toEqual([5, 50]);
  });

  it('gives the same positions as the checked definitions where both exist', () => {
    // ETRS89 / UTM 31N (registry) and Lambert-93 (DEFS) for one point of Paris.
    const viaLambert = toWgs84('EPSG:2154')([652478.29, 6859057.21]);
    const [x, y] = fromWgs84('EPSG:25831')(viaLambert);
    const back = toWgs84('EPSG:25831')([x, y]);
    expect(back[0]).toBeCloseTo(viaLambert[0], 6);
    expect(back[1]).toBeCloseTo(viaLambert[1], 6);
    expect(x).toBeGreaterThan(440_000); // UTM 31N eastings around Paris: about 452 km
    expect(x).toBeLessThan(460_000);
  });
});

describe('reprojectGeometry', () => {
  const fn = toWgs84('EPSG:2154');
  const p: [number, number] = [652478.29, 6859057.21];
  const q: [number, number] = [652500, 6859100];
  const P = fn(p);
  const Q = fn(q);

  it('handles every geometry type and keeps Z', () => {
    const cases: [Geometry, Geometry][] = [
      [{ type: 'Point', coordinates: [...p, 35] }, { type: 'Point', coordinates: [...P, 35] }],
      [{ type: 'MultiPoint', coordinates: [p, q] }, { type: 'MultiPoint', coordinates: [P, Q] }],
      [{ type: 'LineString', coordinates: [p, q] }, { type: 'LineString', coordinates: [P, Q] }],
      [{ type: 'MultiLineString', coordinates: [[p, q], [q, p]] }, { type: 'MultiLineString', coordinates: [[P, Q], [Q, P]] }],
      [{ type: 'Polygon', coordinates: [[p, q, p]] }, { type: 'Polygon', coordinates: [[P, Q, P]] }],
      [{ type: 'MultiPolygon', coordinates: [[[p, q, p]], [[q, p, q]]] }, { type: 'MultiPolygon', coordinates: [[[P, Q, P]], [[Q, P, Q]]] }],
      [
        { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: p }, { type: 'LineString', coordinates: [p, q] }] },
        { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: P }, { type: 'LineString', coordinates: [P, Q] }] },
      ],
    ];
    for (const [input, expected] of cases) expect(reprojectGeometry(input, fn)).toEqual(expected);
  });
});
