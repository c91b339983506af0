import { afterAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { latLngToCell } from 'h3-js';
import { registerIngestFunctions } from '../../../ingest/core/vector-functions.ts';
import { rng } from '../../../bench/generate.ts';

const instance = await DuckDBInstance.create(':memory:');
const c = await instance.connect();
registerIngestFunctions(c);
afterAll(() => {
  c.closeSync();
  instance.closeSync();
});

const hex = (v: bigint | null) => (v === null ? null : v.toString(16));
const reference = (lat: number | null, lng: number | null) => {
  try {
    return lat === null || lng === null ? null : latLngToCell(lat, lng, 15);
  } catch {
    return null;
  }
};

describe('h3_cell(lat, lng)', () => {
  it('gives h3-js resolution-15 cells over many vectors of rows without nulls', async () => {
    const rand = rng(21);
    const rows = Array.from({ length: 5000 }, () => [41 + 10 * rand(), -5 + 14 * rand()]);
    await c.run(`CREATE OR REPLACE TABLE p AS SELECT * FROM (VALUES ${rows.map(([a, b]) => `(${a}::DOUBLE, ${b}::DOUBLE)`).join(', ')}) t(lat, lng)`);
    const got = (await c.runAndReadAll('SELECT lat, lng, h3_cell(lat, lng) AS cell FROM p')).getRowObjectsJS() as { lat: number; lng: number; cell: bigint | null }[];
    expect(got).toHaveLength(5000);
    for (const r of got) expect(hex(r.cell)).toBe(reference(r.lat, r.lng));
  });

  it('answers NULL for null, NaN and infinite positions, in vectors that also hold good ones', async () => {
    const got = (await c.runAndReadAll(`SELECT lat, lng, h3_cell(lat, lng) AS cell FROM (VALUES
      (48.8566::DOUBLE, 2.3522::DOUBLE), (NULL, 2.0), (48.0, NULL), ('NaN'::DOUBLE, 2.0), (45.0, 'inf'::DOUBLE), (50.8503, 4.3517)) t(lat, lng)`)).getRowObjectsJS() as { lat: number | null; lng: number | null; cell: bigint | null }[];
    expect(got.map((r) => hex(r.cell))).toEqual([latLngToCell(48.8566, 2.3522, 15), null, null, null, null, latLngToCell(50.8503, 4.3517, 15)]);
    const nanOnly = (await c.runAndReadAll(`SELECT h3_cell('NaN'::DOUBLE, 1.0) AS cell`)).getRowObjectsJS();
    expect(nanOnly[0]!.cell).toBeNull();
  });
});
