import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellToBoundary, cellToLatLng, getPentagons, gridDisk, latLngToCell } from 'h3-js';
import { pointCellHalves, pointCellId } from '../../../ingest/core/point-cell.ts';
import { pointCell } from '../../../schemas/tables/cells.ts';
import { rng } from '../../../bench/generate.ts';

const out = new Uint32Array(2);
const D = Math.PI / 180;
/** Our cell as h3-js writes it (hex without leading zeros), null for none. */
function ours(lat: number, lng: number, res: number): string | null {
  pointCellHalves(lat, lng, res, out, 0);
  return out[1] === 0 ? null : out[1]!.toString(16) + out[0]!.toString(16).padStart(8, '0');
}
function reference(lat: number, lng: number, res: number): string | null {
  try {
    return latLngToCell(lat, lng, res);
  } catch {
    return null;
  }
}
/** The points where our cell differs from h3-js's, at most a few for the message. */
function differences(points: [number, number][], res: number): string[] {
  const bad: string[] = [];
  for (const [lat, lng] of points) {
    const mine = ours(lat, lng, res), theirs = reference(lat, lng, res);
    if (mine !== theirs && bad.push(`${lat},${lng} res ${res}: ${mine} vs ${theirs}`) >= 5) break;
  }
  return bad;
}

describe('pointCellHalves', () => {
  it('gives h3-js cells for points spread evenly over the whole sphere, at every resolution', () => {
    const rand = rng(11);
    for (let res = 0; res <= 15; res++) {
      const points = Array.from({ length: 15_000 }, (): [number, number] => [(Math.asin(2 * rand() - 1) * 180) / Math.PI, -180 + 360 * rand()]);
      expect(differences(points, res)).toEqual([]);
    }
  });

  it('gives h3-js cells a hair inside cell corners, within a millionth of a cell of two edges', () => {
    const rand = rng(12);
    for (const res of [3, 8, 9, 12, 15]) {
      const points: [number, number][] = [];
      for (let k = 0; k < 500; k++) {
        const cell = latLngToCell(-80 + 160 * rand(), -180 + 360 * rand(), res);
        const centre = cellToLatLng(cell);
        for (const [lat, lng] of cellToBoundary(cell)) for (const t of [1e-6, 1e-4]) points.push([lat + (centre[0] - lat) * t, lng + (centre[1] - lng) * t]);
      }
      expect(differences(points, res)).toEqual([]);
    }
  });

  it('gives h3-js cells around the twelve pentagons and on both sides of the edges between faces', () => {
    const rand = rng(13);
    const points: [number, number][] = [];
    for (const pentagon of getPentagons(2)) {
      for (const cell of gridDisk(pentagon, 3)) {
        const [lat, lng] = cellToLatLng(cell);
        for (let k = 0; k < 20; k++) points.push([lat + (rand() - 0.5) * 0.5, lng + (rand() - 0.5) * 0.5]);
      }
    }
    for (const res of [0, 1, 5, 9, 15]) expect(differences(points, res)).toEqual([]);
    // Face edges join neighbouring vertices (the res-0 pentagons) along great circles: points
    // 1e-7 rad off each side, where the nearest face changes.
    const vec = ([lat, lng]: number[]) => [Math.cos(lat! * D) * Math.cos(lng! * D), Math.cos(lat! * D) * Math.sin(lng! * D), Math.sin(lat! * D)];
    const vertices = getPentagons(0).map((p) => vec(cellToLatLng(p)));
    const edge: [number, number][] = [];
    for (const a of vertices) {
      for (const b of vertices) {
        const cos = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
        if (a === b || cos < 0.4) continue; // neighbours only (63.4° apart)
        const n = [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
        const nl = Math.hypot(n[0]!, n[1]!, n[2]!);
        for (let t = 0.005; t < 1; t += 0.01) {
          for (const side of [1e-7, -1e-7]) {
            const v = [0, 1, 2].map((k) => a[k]! * (1 - t) + b[k]! * t + (side * n[k]!) / nl);
            edge.push([Math.asin(v[2]! / Math.hypot(v[0]!, v[1]!, v[2]!)) / D, Math.atan2(v[1]!, v[0]!) / D]);
          }
        }
      }
    }
    for (const res of [2, 7, 15]) expect(differences(edge, res)).toEqual([]);
  });

  it('gives h3-js cells for the addresses of Paris 13e in the real BAN extract (when present)', () => {
    const file = join(import.meta.dirname, '../../../../shared/realdata/fr/ban/adresses-75_extract_butte_aux_cailles.csv');
    if (!existsSync(file)) return;
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const header = lines[0]!.split(';');
    const [iLat, iLon] = [header.indexOf('lat'), header.indexOf('lon')];
    const points = lines.slice(1).map((l): [number, number] => { const f = l.split(';'); return [Number(f[iLat]), Number(f[iLon])]; });
    expect(points.length).toBeGreaterThan(40);
    for (const res of [9, 12, 15]) expect(differences(points, res)).toEqual([]);
  });

  it('answers no cell (0, 0) where h3-js has none, and h3-js cells for inputs out of range', () => {
    for (const [lat, lng] of [[NaN, 2], [48, Infinity], [-Infinity, 0]] as [number, number][]) {
      pointCellHalves(lat, lng, 15, out, 0);
      expect([out[0], out[1]]).toEqual([0, 0]);
    }
    for (const [lat, lng] of [[95, 10], [45, 190], [-100, -200]] as [number, number][]) expect(ours(lat, lng, 9)).toBe(reference(lat, lng, 9));
  });

  it('writes at the index given, leaving the rest of the array alone', () => {
    const many = new Uint32Array(6).fill(99);
    pointCellHalves(48.8566, 2.3522, 15, many, 1);
    expect([many[0], many[1], many[4], many[5]]).toEqual([99, 99, 99, 99]);
    expect(many[3]!.toString(16) + many[2]!.toString(16).padStart(8, '0')).toBe(latLngToCell(48.8566, 2.3522, 15));
  });

  it('gives the BIGINT of the cell columns as the schemas encode it, and refuses a point with no cell', () => {
    for (const [lat, lng] of [[48.8566, 2.3522], [45.5017, -73.5673], [50.8503, 4.3517], [-21.1151, 55.5364]] as [number, number][]) {
      expect(pointCellId(lat, lng)).toBe(pointCell(lat, lng));
      expect(pointCellId(lat, lng, 9)).toBe(pointCell(lat, lng, 9));
    }
    expect(() => pointCellId(NaN, 2)).toThrow(RangeError);
  });
});
