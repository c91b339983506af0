import { pointCellHalves } from './point-cell.ts';

/**
 * Compact keys of coarse H3 cells (resolution 0 to 12) as plain numbers, for Maps on ingest's
 * hot paths: a cell is its base cell, its digits and its resolution, at most 7 + 36 + 4 bits,
 * exact in a double. A point's cell and all its ancestors then cost one `pointCellHalves` and a
 * few integer operations, where h3-js's latLngToCell and cellToParent took about 15 µs.
 */
export const MAX_KEY_RES = 12;

/** Key of a cell given as its 64-bit index. */
export function cellKey(cell: bigint): number {
  return keyOfHalves(Number(cell >> 32n), Number(cell & 0xffffffffn));
}

/**
 * Keys of the cell holding the point at `res`, then of each ancestor up to resolution 0
 * (finest first), written to `out`; returns how many (res + 1), or 0 where the point has no cell.
 */
export function pointCellKeys(lat: number, lng: number, res: number, out: Float64Array): number {
  if (!(res >= 0 && res <= MAX_KEY_RES)) throw new RangeError(`resolution ${res} is not between 0 and ${MAX_KEY_RES}`);
  pointCellHalves(lat, lng, res, halves, 0);
  if (halves[1] === 0) return 0;
  const hi = halves[1]!, lo = halves[0]!;
  let prefix = (hi >>> 13) & 0x7f; // the base cell, then its digits one by one
  out[res] = prefix * 16;
  for (let r = 1; r <= res; r++) {
    prefix = prefix * 8 + digit(hi, lo, r);
    out[res - r] = prefix * 16 + r;
  }
  return res + 1;
}

const halves = new Uint32Array(2);

function keyOfHalves(hi: number, lo: number): number {
  const res = (hi >>> 20) & 0xf;
  if (res > MAX_KEY_RES) throw new RangeError(`cell of resolution ${res}: keys go to ${MAX_KEY_RES}`);
  let prefix = (hi >>> 13) & 0x7f;
  for (let r = 1; r <= res; r++) prefix = prefix * 8 + digit(hi, lo, r);
  return prefix * 16 + res;
}

/** Digit `d` (1-15) of a cell index: 3 bits at bit (15 - d) * 3 of the 64. */
function digit(hi: number, lo: number, d: number): number {
  const p = (15 - d) * 3;
  if (p >= 32) return (hi >>> (p - 32)) & 7;
  if (p <= 29) return (lo >>> p) & 7;
  return ((lo >>> p) | (hi << (32 - p))) & 7; // bits 30-32: across the halves
}
