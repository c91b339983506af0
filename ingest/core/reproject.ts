/**
 * Reprojection to WGS84 longitude/latitude.
 *
 * Axis order everywhere: input `[x, y]` = easting/northing in metres for projected CRSs,
 * `[lng, lat]` in degrees for geographic ones (GeoJSON / shapefile order, never the
 * EPSG "lat, lng" axis order); output `[lng, lat]` in degrees, rounded to 7 decimals
 * (~1 cm).
 *
 * `crs` accepted by `toWgs84`:
 * - null, `EPSG:4326`, `EPSG:4171` (RGF93), `EPSG:4269` (NAD83), `EPSG:4617` (NAD83(CSRS)),
 *   CRS84 (`urn:ogc:def:crs:OGC:1.3:CRS84`, `OGC:CRS84`): identity (+ rounding). These
 *   datums coincide with WGS84 within ~1-2 m, below the precision we need.
 * - `EPSG:NNNN` (or `urn:ogc:def:crs:EPSG::NNNN`, `EPSG::NNNN`): the codes registered in DEFS
 *   below (their EPSG-recommended transformation to WGS 84 checked here), WGS84 UTM zones
 *   `EPSG:326NN` / `EPSG:327NN`, then any projected or geographic CRS of the EPSG registry
 *   through the `epsg-index` package (its proj4 definition, else its WKT). A code it does not
 *   know, or a CRS that is not horizontal (vertical, engineering...), throws a clear error.
 * - a WKT string (what `crsFromWkt` returns for an unrecognised .prj) or a `+proj=` string:
 *   handed to proj4 as is.
 */
import type { Geometry, Position } from 'geojson';
import { createRequire } from 'node:module';
import proj4 from 'proj4';

export type XY = [number, number];
export type ToWgs84 = (xy: [number, number]) => [number, number];

/**
 * proj4 definitions written from the EPSG dataset parameters (projection parameters and,
 * where the datum differs from WGS84, the EPSG-recommended Helmert transformation to
 * WGS 84 as `+towgs84`, position-vector convention).
 */
const DEFS: Record<number, string> = {
  // RGF93 v1 / Lambert-93 (France métropolitaine)
  2154: '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  // RGAF09 / UTM zone 20N (Guadeloupe, Martinique)
  5490: '+proj=utm +zone=20 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  // RGFG95 / UTM zone 22N (Guyane)
  2972: '+proj=utm +zone=22 +ellps=GRS80 +towgs84=2,2,-2,0,0,0,0 +units=m +no_defs',
  // RGR92 / UTM zone 40S (La Réunion)
  2975: '+proj=utm +zone=40 +south +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  // RGM04 / UTM zone 38S (Mayotte)
  4471: '+proj=utm +zone=38 +south +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  // Belge 1972 / Belgian Lambert 72 (BD72 -> WGS 84: EPSG transformation 15929)
  31370:
    '+proj=lcc +lat_0=90 +lon_0=4.36748666666667 +lat_1=51.1666672333333 +lat_2=49.8333339 +x_0=150000.013 +y_0=5400088.438 +ellps=intl +towgs84=-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747 +units=m +no_defs',
  // ETRS89 / Belgian Lambert 2008
  3812: '+proj=lcc +lat_0=50.797815 +lon_0=4.35921583333333 +lat_1=49.8333333333333 +lat_2=51.1666666666667 +x_0=649328 +y_0=665262 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  // NAD83 / Quebec Lambert
  32198: '+proj=lcc +lat_0=44 +lon_0=-68.5 +lat_1=60 +lat_2=46 +x_0=0 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  // NAD83 / Statistics Canada Lambert
  3347: '+proj=lcc +lat_0=63.390675 +lon_0=-91.8666666666667 +lat_1=49 +lat_2=77 +x_0=6200000 +y_0=3000000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs',
  // WGS 84 / Pseudo-Mercator
  3857: '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs',
};

/** Geographic CRSs treated as WGS84 (identity). */
const IDENTITY = new Set([4326, 4171, 4269, 4617]);

for (const [code, def] of Object.entries(DEFS)) proj4.defs(`EPSG:${code}`, def);

/** Codes defined here (their transformation checked); `toWgs84` also accepts any code of the EPSG registry. */
export const SUPPORTED_EPSG: readonly number[] = [...IDENTITY, ...Object.keys(DEFS).map(Number)].sort((a, b) => a - b);

const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';

/** An entry of the EPSG registry as the `epsg-index` package publishes it (one JSON file per code). */
interface EpsgEntry { code: string; kind: string; name: string; wkt: string | null; proj4: string | null }
const requireJson = createRequire(import.meta.url);
/** Kinds of CRS whose x, y a horizontal position can be computed from. */
const HORIZONTAL = new Set(['CRS-PROJCRS', 'CRS-GEOGCRS', 'CRS-GEOG3DCRS', 'CRS-COMPOUNDCRS']);

/**
 * The proj4 definition (else the WKT) of an EPSG code from the registry of `epsg-index`
 * (8,000 codes, kept up to date with the EPSG dataset); throws naming the reason otherwise.
 */
export function epsgRegistryDef(code: number): string {
  let entry: EpsgEntry;
  try {
    entry = requireJson(`epsg-index/s/${code}.json`) as EpsgEntry;
  } catch {
    throw new Error(`Unknown CRS EPSG:${code}: not in the EPSG registry (package epsg-index); give the CRS as WKT (a .prj file's text) or a +proj string`);
  }
  if (!HORIZONTAL.has(entry.kind)) throw new Error(`CRS EPSG:${code} (${entry.name}) is a ${entry.kind.replace(/^CRS-/, '').toLowerCase()} CRS, not a horizontal one: positions cannot be read in it`);
  const def = entry.proj4 ?? entry.wkt;
  if (!def) throw new Error(`CRS EPSG:${code} (${entry.name}) has no definition proj4 can read in the EPSG registry`);
  return def;
}

/** Rounds to 7 decimals (about 1 cm at the equator). */
export function round7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}

const identity: ToWgs84 = (xy) => [round7(xy[0]), round7(xy[1])];

/** EPSG code from `EPSG:n`, `EPSG::n`, `urn:ogc:def:crs:EPSG:<version>:n`; null if not EPSG. */
export function parseEpsgCode(crs: string): number | null {
  const m = /^(?:urn:ogc:def:crs:)?epsg:(?:[\d.]*:)?(\d+)$/i.exec(crs.trim());
  return m ? Number(m[1]) : null;
}

function isCrs84(crs: string): boolean {
  return /^(?:urn:ogc:def:crs:)?ogc:(?:1\.3:)?crs:?84$/i.test(crs.trim()) || /^crs:?84$/i.test(crs.trim());
}

function utmDef(code: number): string | null {
  if (code >= 32601 && code <= 32660) return `+proj=utm +zone=${code - 32600} +datum=WGS84 +units=m +no_defs`;
  if (code >= 32701 && code <= 32760) return `+proj=utm +zone=${code - 32700} +south +datum=WGS84 +units=m +no_defs`;
  return null;
}

/**
 * Function converting `[x, y]` in `crs` to `[lng, lat]` WGS84 (7 decimals).
 * Throws for an unsupported EPSG code or an unparsable definition.
 */
export function toWgs84(crs: string | null): ToWgs84 {
  if (crs === null || crs.trim() === '' || isCrs84(crs)) return identity;
  const code = parseEpsgCode(crs);
  let def: string;
  if (code !== null) {
    if (IDENTITY.has(code)) return identity;
    def = DEFS[code] ?? utmDef(code) ?? epsgRegistryDef(code);
  } else {
    def = crs.trim();
  }
  let converter: proj4.Converter;
  try {
    converter = proj4(def, WGS84);
  } catch (err) {
    throw new Error(`Cannot build a projection from CRS ${JSON.stringify(crs.slice(0, 200))}: ${(err as Error).message}`);
  }
  return (xy) => {
    const [lng, lat] = converter.forward([xy[0], xy[1]]);
    return [round7(lng), round7(lat)];
  };
}

/** Inverse of `toWgs84` for the same CRS: `[lng, lat]` -> `[x, y]` (not rounded). Mainly for tests. */
export function fromWgs84(crs: string): (lngLat: [number, number]) => [number, number] {
  const code = parseEpsgCode(crs);
  const def = code === null ? crs : IDENTITY.has(code) ? WGS84 : (DEFS[code] ?? utmDef(code) ?? epsgRegistryDef(code));
  const converter = proj4(def, WGS84);
  return (p) => {
    const [x, y] = converter.inverse([p[0], p[1]]);
    return [x, y];
  };
}

function mapPosition(p: Position, fn: ToWgs84): Position {
  const [lng, lat] = fn([p[0], p[1]]);
  // Z (and M) are kept untouched.
  return p.length > 2 ? [lng, lat, ...p.slice(2)] : [lng, lat];
}

function mapPositions(ps: Position[], fn: ToWgs84): Position[] {
  const out = new Array<Position>(ps.length);
  for (let i = 0; i < ps.length; i++) out[i] = mapPosition(ps[i], fn);
  return out;
}

/** Applies `fn` to every position of a geometry (all GeoJSON types, nested collections). */
export function reprojectGeometry(g: Geometry, fn: ToWgs84): Geometry {
  switch (g.type) {
    case 'Point':
      return { type: 'Point', coordinates: mapPosition(g.coordinates, fn) };
    case 'MultiPoint':
      return { type: 'MultiPoint', coordinates: mapPositions(g.coordinates, fn) };
    case 'LineString':
      return { type: 'LineString', coordinates: mapPositions(g.coordinates, fn) };
    case 'MultiLineString':
      return { type: 'MultiLineString', coordinates: g.coordinates.map((l) => mapPositions(l, fn)) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: g.coordinates.map((r) => mapPositions(r, fn)) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map((r) => mapPositions(r, fn))) };
    case 'GeometryCollection':
      return { type: 'GeometryCollection', geometries: g.geometries.map((c) => reprojectGeometry(c, fn)) };
    default:
      throw new Error(`Unknown geometry type ${(g as { type: unknown }).type}`);
  }
}
