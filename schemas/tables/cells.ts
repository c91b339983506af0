import { cellToParent, getResolution, gridDisk, latLngToCell } from 'h3-js';

/**
 * Encoding of the `cell` columns of every table: an H3 index as BIGINT (its 64 bits; the top bit of
 * every H3 index is 0, so the signed value is the index and sorts as it). Spark reads it as a long,
 * H3 tools (h3-pyspark, Databricks, the DuckDB and PostGIS h3 extensions) take int64; an unsigned
 * UBIGINT was read by Spark as decimal(20,0) (docs/architecture.md, Files for analysts). Shared by the ingest
 * (writing) and the API (querying), so both sides agree on it.
 */
export function cellToBigint(cell: string): bigint {
  return BigInt(`0x${cell}`);
}

/** The cell of a point and its ancestors, finest first: the keys under which a compacted cover may hold it. */
export function cellAndAncestors(lat: number, lng: number, res: number): bigint[] {
  const cell = latLngToCell(lat, lng, res);
  const out: bigint[] = [];
  for (let r = getResolution(cell); r >= 0; r--) out.push(cellToBigint(r === res ? cell : cellToParent(cell, r)));
  return out;
}

const FINEST = 15;
// Masks per resolution r, computed once: a range costs a few BigInt operations (each allocates),
// not a loop over the unused digits (radius queries take dozens of ranges per request).
const RES_FINEST = BigInt(FINEST) << 52n;
/** Bits kept from a resolution-r cell: all but the resolution field (bits 52-55) and digits r+1..15 (the low (15 - r) * 3 bits). */
const KEPT_BITS = Array.from({ length: FINEST + 1 }, (_, r) => ((1n << 64n) - 1n) & ~((0xfn << 52n) | ((1n << BigInt((FINEST - r) * 3)) - 1n)));
/** The same digits, each set to 6 (the highest child digit). */
const HIGHEST_DIGITS = Array.from({ length: FINEST + 1 }, (_, r) => {
  let v = 0n;
  for (let d = r + 1; d <= FINEST; d++) v |= 6n << BigInt((FINEST - d) * 3);
  return v;
});

/** The resolution field (bits 52-55) of a cell. */
const resolutionOf = (cell: bigint) => Number((cell >> 52n) & 0xfn);

/** Resolution-15 interval [lo, hi] holding every point cell under `cell`: H3 descendants are contiguous. */
export function descendantRange(cell: string): [bigint, bigint] {
  const v = cellToBigint(cell);
  const res = resolutionOf(v);
  // Resolution field set to 15; unused digits (3 bits each, 7 = unused) set to 0 for lo and 6 for hi.
  const lo = (v & KEPT_BITS[res]!) | RES_FINEST;
  return [lo, lo | HIGHEST_DIGITS[res]!];
}

/** Ranges of point cells within about `radiusM` of a point, for a BETWEEN query on a table sorted by cell. */
export function rangesAround(lat: number, lng: number, res: number, k: number): [bigint, bigint][] {
  return gridDisk(latLngToCell(lat, lng, res), k).map(descendantRange).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** Resolution of point cells (about 1 m): fine enough to sort and prune any radius query. */
export const POINT_RES = 15;

/** Point cell of a WGS84 position, axis order (lat, lng) as h3-js takes it. */
export function pointCell(lat: number, lng: number, res = POINT_RES): bigint {
  return cellToBigint(latLngToCell(lat, lng, res));
}

/**
 * A cover file's cell directory: the Parquet key-value metadata entry (CELL_DIRECTORY_KEY) listing,
 * at one resolution, the directory key of every cell of the file (directoryKey). Why: a file's
 * min/max cell statistics are a range of the H3 order, and a commune straddling the boundary of a
 * coarse cell has a range spanning much of its neighbours': at 8 departments of generated
 * communes, a point's ten cover cells met 92 of 2,920 cover files by their ranges at the median (docs/benchmarks.md).
 * The directory names exactly the files that can hold a cell.
 */
export const CELL_DIRECTORY_KEY = 'h3_cell_directory';
/** A cover table, whose files carry a directory: `<table>_cells` (areas.ts' areaCellsTable, zone_cells), looked up one cell at a time. */
export const isCoverTable = (table: string) => table.endsWith('_cells');
/** The resolution a directory starts at (about 5 km² a cell: a commune's cover takes a few), and its most keys before it is coarsened. */
export const CELL_DIRECTORY_RES = 7;
export const CELL_DIRECTORY_MAX = 4096;
export interface CellDirectory { resolution: number; cells: string[] }

/** Digits r+1..15 of a cell set to 7 (unused): with KEPT_BITS and the resolution field, the ancestor at r. */
const UNUSED_DIGITS = Array.from({ length: FINEST + 1 }, (_, r) => (1n << BigInt((FINEST - r) * 3)) - 1n);

/**
 * The key of a cell in a directory of resolution r: its ancestor at r, or the cell itself when it
 * is at r or coarser. A cell stored in a file and a cell looked up are equal only if their keys
 * are: the key of the looked-up cell is then in the file's directory.
 */
export function directoryKey(cell: bigint, r: number): bigint {
  const res = resolutionOf(cell);
  return res <= r ? cell : (cell & KEPT_BITS[r]!) | (BigInt(r) << 52n) | UNUSED_DIGITS[r]!;
}

/** directoryKey as a DuckDB expression over a BIGINT column (every H3 index is below 2^63: the masks fit a signed BIGINT). */
export function directoryKeySql(column: string, r: number): string {
  return `CASE WHEN ((${column} >> 52) & 15) <= ${r} THEN ${column} ELSE (${column} & ${BigInt.asIntN(64, KEPT_BITS[r]!)}) | ${(BigInt(r) << 52n) | UNUSED_DIGITS[r]!} END`;
}

/** The directory of keys taken at CELL_DIRECTORY_RES, coarsened a resolution at a time until it has at most `max` keys. */
export function cellDirectory(keys: Iterable<bigint>, max = CELL_DIRECTORY_MAX): CellDirectory {
  let r = CELL_DIRECTORY_RES;
  let set = new Set(keys);
  while (set.size > max && r > 0) {
    r--;
    set = new Set([...set].map((k) => directoryKey(k, r)));
  }
  return { resolution: r, cells: [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((k) => k.toString(16)) };
}
