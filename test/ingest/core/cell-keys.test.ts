import { describe, expect, it } from 'vitest';
import { cellToParent, getPentagons, getResolution, latLngToCell } from 'h3-js';
import { cellKey, MAX_KEY_RES, pointCellKeys } from '../../../ingest/core/cell-keys.ts';
import { cellToBigint } from '../../../schemas/tables/cells.ts';
import { rng } from '../../../bench/generate.ts';

/** The keys of a point's cell and its ancestors as h3-js computes the cells. */
function referenceKeys(lat: number, lng: number, res: number): number[] {
  const cell = latLngToCell(lat, lng, res);
  const out: number[] = [];
  for (let r = res; r >= 0; r--) out.push(cellKey(cellToBigint(r === res ? cell : cellToParent(cell, r))));
  return out;
}

describe('cell keys', () => {
  it('give the keys of the cells h3-js gives for a point and its ancestors, at every resolution, over the whole sphere', () => {
    const rand = rng(5);
    const out = new Float64Array(MAX_KEY_RES + 1);
    for (let res = 0; res <= MAX_KEY_RES; res++) {
      for (let n = 0; n < 2000; n++) {
        const lat = (Math.asin(2 * rand() - 1) * 180) / Math.PI, lng = -180 + 360 * rand();
        const count = pointCellKeys(lat, lng, res, out);
        expect([...out.subarray(0, count)], `${lat},${lng} res ${res}`).toEqual(referenceKeys(lat, lng, res));
      }
    }
  });

  it('tell cells apart: distinct cells of every resolution, pentagons included, have distinct keys', () => {
    const rand = rng(9);
    const seen = new Map<number, string>();
    const cells = new Set<string>(getPentagons(9).flatMap((p) => Array.from({ length: 10 }, (_, r) => cellToParent(p, r))));
    for (let n = 0; n < 20_000; n++) cells.add(latLngToCell((Math.asin(2 * rand() - 1) * 180) / Math.PI, -180 + 360 * rand(), Math.floor(rand() * (MAX_KEY_RES + 1))));
    for (const cell of cells) {
      const key = cellKey(cellToBigint(cell));
      expect(seen.get(key) ?? cell, `${cell} and ${seen.get(key)}`).toBe(cell);
      seen.set(key, cell);
      expect(key % 16).toBe(getResolution(cell));
    }
  });

  it('refuse resolutions past 12 and give nothing for a point without a cell', () => {
    const out = new Float64Array(16);
    expect(() => pointCellKeys(48.86, 2.36, 13, out)).toThrow(RangeError);
    expect(() => cellKey(cellToBigint(latLngToCell(48.86, 2.36, 15)))).toThrow(RangeError);
    expect(pointCellKeys(Number.NaN, 2.36, 9, out)).toBe(0);
    expect(pointCellKeys(48.86, Number.POSITIVE_INFINITY, 9, out)).toBe(0);
  });
});
