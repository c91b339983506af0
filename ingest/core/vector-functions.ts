import { endianness } from 'node:os';
import { BIGINT, DOUBLE, DuckDBScalarFunction, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { pointCellHalves } from './point-cell.ts';
import { streetKey, localityKey } from '../../schemas/tables/address-key.ts';
import { toWgs84 } from './reproject.ts';

type Out = { setItem(i: number, v: unknown): void; flush(): void };

/**
 * @duckdb/node-api keeps a numeric vector's values in a typed array `items` and its nulls in
 * `validity` (whose `data` is null when every row is valid), then copies them to DuckDB at
 * `flush`. Where that layout is found (checked at every call, so another version of the package
 * falls back to getItem/setItem), the hot functions read and write the arrays themselves.
 */
interface VectorLayout { items?: unknown; validity?: { data?: unknown } }
const LITTLE_ENDIAN = endianness() === 'LE';

/** The values of a DOUBLE vector without nulls, or null when they cannot be read directly. */
function validDoubles(vector: unknown): Float64Array | null {
  const v = vector as VectorLayout;
  return v.items instanceof Float64Array && v.validity && v.validity.data == null ? v.items : null;
}

/** A BIGINT output vector's values as 32-bit halves (low first), or null (H3 indexes are below 2^63: the sign bit is 0). */
function uint64Halves(vector: unknown): Uint32Array | null {
  const v = vector as VectorLayout;
  return LITTLE_ENDIAN && (v.items instanceof BigInt64Array || v.items instanceof BigUint64Array) ? new Uint32Array(v.items.buffer, v.items.byteOffset, v.items.length * 2) : null;
}

/** Memoised string function: street and locality names repeat many times in an address file. */
function memo(fn: (s: string) => string, max = 200_000): (s: string) => string {
  const cache = new Map<string, string>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined) {
      if (cache.size >= max) cache.clear();
      cache.set(s, (v = fn(s)));
    }
    return v;
  };
}

function stringFunction(name: string, fn: (s: string) => string): DuckDBScalarFunction {
  const f = memo(fn);
  return DuckDBScalarFunction.create({
    name, returnType: VARCHAR, parameterTypes: [VARCHAR],
    mainFunction: (_info, input, output) => {
      const v = input.getColumnValues(0) as (string | null)[];
      const out = output as unknown as Out;
      for (let i = 0; i < input.rowCount; i++) out.setItem(i, v[i] == null ? null : f(v[i]!));
      out.flush();
    },
  });
}

/**
 * Registers the TypeScript functions ingest SQL uses, each called once per vector of rows:
 * h3_cell(lat, lng) -> BIGINT (resolution 15; null where the point has no cell; see
 * point-cell.ts), street_key(text), locality_key(text), and
 * wgs84_lng / wgs84_lat (x, y, crs) reprojecting with proj4.
 */
export function registerIngestFunctions(connection: DuckDBConnection): void {
  const halves = new Uint32Array(2);
  connection.registerScalarFunction(DuckDBScalarFunction.create({
    name: 'h3_cell', returnType: BIGINT, parameterTypes: [DOUBLE, DOUBLE],
    mainFunction: (_info, input, output) => {
      const n = input.rowCount;
      const la = input.getColumnVector(0), lo = input.getColumnVector(1);
      const out = output as unknown as Out;
      const lats = validDoubles(la), lngs = validDoubles(lo), cells = uint64Halves(output);
      if (lats && lngs && cells) {
        // The common case, a million times per million rows: no boxing, no BigInt.
        for (let i = 0; i < n; i++) {
          pointCellHalves(lats[i]!, lngs[i]!, 15, cells, i);
          if (cells[2 * i + 1] === 0) out.setItem(i, null);
        }
      } else {
        for (let i = 0; i < n; i++) {
          pointCellHalves((la.getItem(i) as number | null) ?? NaN, (lo.getItem(i) as number | null) ?? NaN, 15, halves, 0);
          out.setItem(i, halves[1] === 0 ? null : (BigInt(halves[1]!) << 32n) | BigInt(halves[0]!));
        }
      }
      out.flush();
    },
  }));
  connection.registerScalarFunction(stringFunction('street_key', streetKey));
  connection.registerScalarFunction(stringFunction('locality_key', localityKey));
  const projections = new Map<string, (xy: [number, number]) => [number, number]>();
  for (const [name, axis] of [['wgs84_lng', 0], ['wgs84_lat', 1]] as const) {
    connection.registerScalarFunction(DuckDBScalarFunction.create({
      name, returnType: DOUBLE, parameterTypes: [DOUBLE, DOUBLE, VARCHAR],
      mainFunction: (_info, input, output) => {
        const x = input.getColumnValues(0) as (number | null)[];
        const y = input.getColumnValues(1) as (number | null)[];
        const crs = input.getColumnValues(2) as (string | null)[];
        const out = output as unknown as Out;
        for (let i = 0; i < input.rowCount; i++) {
          if (x[i] == null || y[i] == null || crs[i] == null) { out.setItem(i, null); continue; }
          let fn = projections.get(crs[i]!);
          if (!fn) projections.set(crs[i]!, (fn = toWgs84(crs[i]!)));
          out.setItem(i, fn([x[i]!, y[i]!])[axis]);
        }
        out.flush();
      },
    }));
  }
}
