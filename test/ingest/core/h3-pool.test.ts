import { afterAll, describe, expect, it } from 'vitest';
import { latLngToCell } from 'h3-js';
import { H3Pool } from '../../../ingest/core/h3-pool.ts';
import { rng } from '../../../bench/generate.ts';

const hex = (out: Uint32Array, i: number) =>
  out[2 * i + 1] === 0 ? null : out[2 * i + 1]!.toString(16) + out[2 * i]!.toString(16).padStart(8, '0');

describe('H3Pool', () => {
  const pool = new H3Pool(1);
  afterAll(() => pool.close());

  it('gives the cells h3-js gives, in order, whatever the share each thread takes', () => {
    const rand = rng(3);
    for (const n of [1, 255, 256, 2047, 2048, 4096]) {
      const lat = Float64Array.from({ length: n }, () => -89 + rand() * 178);
      const lng = Float64Array.from({ length: n }, () => -180 + rand() * 360);
      const out = new Uint32Array(2 * n);
      pool.cells(lat, lng, n, 15, out);
      for (let i = 0; i < n; i++) expect(hex(out, i)).toBe(latLngToCell(lat[i]!, lng[i]!, 15));
    }
  });

  it('answers no cell (0, 0) for missing or impossible coordinates, on the calling thread and on workers', () => {
    const n = 1000;
    const lat = new Float64Array(n).fill(48.8566);
    const lng = new Float64Array(n).fill(2.3522);
    for (const i of [3, 700]) lat[i] = NaN;
    for (const i of [5, 900]) lng[i] = Infinity;
    const out = new Uint32Array(2 * n);
    pool.cells(lat, lng, n, 9, out);
    for (const i of [3, 5, 700, 900]) expect(hex(out, i)).toBeNull();
    expect(hex(out, 0)).toBe(latLngToCell(48.8566, 2.3522, 9));
    expect(hex(out, 999)).toBe(latLngToCell(48.8566, 2.3522, 9));
  });

  it('works without worker threads and refuses work once closed', async () => {
    const solo = new H3Pool(0);
    expect(solo.threads).toBe(1);
    const out = new Uint32Array(2 * 300);
    solo.cells(new Float64Array(300).fill(45.5017), new Float64Array(300).fill(-73.5673), 300, 12, out);
    expect(hex(out, 299)).toBe(latLngToCell(45.5017, -73.5673, 12));
    await solo.close();
    expect(() => solo.cells(new Float64Array(1), new Float64Array(1), 1, 12, out)).toThrow(/closed/);
  });
});
