import { cellToParent, getResolution, gridDisk, latLngToCell } from 'h3-js';

/**
 * Encoding of the `cell` columns of every table: an H3 index as UBIGINT. Shared by the ingest
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
/** Resolution-15 interval [lo, hi] holding every point cell under `cell`: H3 descendants are contiguous. */
export function descendantRange(cell: string): [bigint, bigint] {
  const res = getResolution(cell);
  let v = cellToBigint(cell);
  // Resolution field (bits 52-55) set to 15; unused digits (3 bits each, 7 = unused) set to 0 for lo and 6 for hi.
  v = (v & ~(0xfn << 52n)) | (BigInt(FINEST) << 52n);
  let lo = v, hi = v;
  for (let r = res + 1; r <= FINEST; r++) {
    const shift = BigInt((FINEST - r) * 3);
    lo &= ~(7n << shift);
    hi = (hi & ~(7n << shift)) | (6n << shift);
  }
  return [lo, hi];
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
