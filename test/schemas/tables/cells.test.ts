import { cellToChildren, cellToParent, gridDisk, latLngToCell } from 'h3-js';
import { describe, expect, it } from 'vitest';
import { cellAndAncestors, cellToBigint, descendantRange, pointCell, rangesAround } from '../../../schemas/tables/cells.ts';

describe('cell encoding shared by ingest and API', () => {
  const rueDeBretagne = { lat: 48.86306, lng: 2.36203 };

  it('stores an H3 index as the BIGINT of its hex digits', () => {
    const h = latLngToCell(rueDeBretagne.lat, rueDeBretagne.lng, 15);
    expect(pointCell(rueDeBretagne.lat, rueDeBretagne.lng)).toBe(BigInt(`0x${h}`));
  });

  it('lists a cell and each ancestor, finest first', () => {
    const list = cellAndAncestors(rueDeBretagne.lat, rueDeBretagne.lng, 9);
    expect(list).toHaveLength(10);
    expect(list[0]).toBe(cellToBigint(latLngToCell(rueDeBretagne.lat, rueDeBretagne.lng, 9)));
    expect(list[9]).toBe(cellToBigint(cellToParent(latLngToCell(rueDeBretagne.lat, rueDeBretagne.lng, 9), 0)));
  });

  it('holds every resolution-15 descendant of a cell in one interval, and no cell of a neighbour', () => {
    const parent = latLngToCell(rueDeBretagne.lat, rueDeBretagne.lng, 11);
    const [lo, hi] = descendantRange(parent);
    for (const child of cellToChildren(parent, 15)) {
      const v = cellToBigint(child);
      expect(v >= lo && v <= hi).toBe(true);
    }
    for (const n of gridDisk(parent, 1).filter((c) => c !== parent)) {
      for (const child of cellToChildren(n, 14).slice(0, 7)) {
        const v = cellToBigint(cellToChildren(child, 15)[0]!);
        expect(v >= lo && v <= hi).toBe(false);
      }
    }
  });

  it('gives sorted, disjoint ranges around a point', () => {
    const ranges = rangesAround(rueDeBretagne.lat, rueDeBretagne.lng, 11, 1);
    expect(ranges).toHaveLength(7);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0] > ranges[i - 1]![1]).toBe(true);
  });
});
