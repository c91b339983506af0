import { cellToChildren, cellToParent, gridDisk, latLngToCell } from 'h3-js';
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { cellAndAncestors, cellDirectory, cellToBigint, descendantRange, directoryKey, directoryKeySql, pointCell, rangesAround } from '../../../schemas/tables/cells.ts';

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

describe('cell directories of cover files', () => {
  // Cells of every resolution around Paris, Abzac, Montreal and Brussels.
  const cells = [[48.86306, 2.36203], [45.0118, -0.1389], [45.5019, -73.5674], [50.8466, 4.3528]].flatMap(([lat, lng]) =>
    Array.from({ length: 16 }, (_, res) => latLngToCell(lat!, lng!, res)));

  it('keys a cell finer than the directory by its ancestor, and a coarser one by itself', () => {
    for (const c of cells) for (let r = 0; r <= 15; r++) {
      const res = Number((cellToBigint(c) >> 52n) & 0xfn);
      expect(directoryKey(cellToBigint(c), r)).toBe(cellToBigint(res > r ? cellToParent(c, r) : c));
    }
  });

  it('computes the same keys in DuckDB as in TypeScript', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    try {
      for (const r of [0, 5, 7, 9]) {
        const values = cells.map((c) => `(${cellToBigint(c)})`).join(', ');
        const rows = (await connection.runAndReadAll(`SELECT ${directoryKeySql('cell', r)} AS k FROM (VALUES ${values}) t(cell)`)).getColumnsJS()[0] as bigint[];
        expect(rows).toEqual(cells.map((c) => directoryKey(cellToBigint(c), r)));
      }
    } finally { connection.closeSync(); db.closeSync(); }
  });

  it('coarsens a directory until it fits, and still names every cell it was made of', () => {
    const fine = gridDisk(latLngToCell(48.86306, 2.36203, 9), 60).map(cellToBigint);
    const keys = fine.map((c) => directoryKey(c, 7));
    const small = cellDirectory(keys, 4);
    expect(small.resolution).toBeLessThan(7);
    expect(small.cells.length).toBeLessThanOrEqual(4);
    for (const c of fine) expect(small.cells).toContain(directoryKey(c, small.resolution).toString(16));
    const whole = cellDirectory(keys);
    expect(whole.resolution).toBe(7);
    expect(new Set(whole.cells)).toEqual(new Set(keys.map((k) => k.toString(16))));
  });
});
