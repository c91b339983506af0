import type { DuckDBValue } from '@duckdb/node-api';
import type { Country } from '../../../schemas/common.ts';
import type { Warehouse } from '../../core/warehouse.ts';
import { haversineM, type OfficialAddress } from './official.ts';
import { indexCache, lowerBound } from './warehouse-index.ts';

/**
 * In-process index of a country's official addresses, for the reverse search of a position
 * (nearestAddress): cells, positions and the fields served, as typed arrays and one UTF-8 text
 * in cell order, so the nearest address is a few binary searches and a distance per candidate
 * instead of a DuckDB read of Parquet row groups. The answer is the SQL path's: same candidate
 * ranges, same distance function, same tie-breaking (distance, then id).
 *
 * Memory per address: 8 (cell) + 8 + 8 (latitude, longitude) + 4 (number) + 2 (null flags)
 * + 4 (text offset) = 34 bytes, plus the text "id NUL rep NUL street ..." (100 to 200 bytes).
 */
export interface AddressIndex {
  readonly size: number;
  /** Bytes held by the arrays. */
  readonly bytes: number;
  nearest(lat: number, lng: number, ranges: [bigint, bigint][], maxM: number): (OfficialAddress & { distance_m: number }) | null;
}

/** Default memory budget per country: above it the index is not built and lookups stay on DuckDB. */
export const ADDRESS_INDEX_BUDGET_BYTES = 2 ** 30;
const FIXED_BYTES = 34;
/** Text fields in their order in the text; a set bit of `nulls` marks a null one. */
const TEXT = ['id', 'rep', 'street', 'postcode', 'locality_code', 'locality_name', 'label', 'parcels', 'locality_key', 'source'] as const;
const NULL_NUMBER = 1 << TEXT.length;

export async function buildAddressIndex(warehouse: Warehouse, country: Country, budget = ADDRESS_INDEX_BUDGET_BYTES): Promise<AddressIndex | null> {
  if (!warehouse.has(country, 'addresses')) return null;
  const view = `${country}_addresses`;
  const where = 'cell IS NOT NULL';
  const [sizes] = await warehouse.query<{ n: number; text: number | null }>(
    `SELECT count(*)::DOUBLE AS n, sum(${TEXT.map((f) => `coalesce(strlen(${f}), 0)`).join(' + ')} + ${TEXT.length - 1})::DOUBLE AS text FROM ${view} WHERE ${where}`);
  const n = sizes!.n, textBytes = sizes!.text ?? 0;
  const bytes = n * FIXED_BYTES + 4 + textBytes;
  if (bytes > budget || textBytes >= 2 ** 32) return null;
  const cells = new BigUint64Array(n), lats = new Float64Array(n), lngs = new Float64Array(n);
  const numbers = new Int32Array(n), nulls = new Uint16Array(n), textStart = new Uint32Array(n + 1);
  const text = Buffer.allocUnsafe(textBytes);
  let row = 0, at = 0;
  await warehouse.scan(`SELECT cell, latitude, longitude, number, ${TEXT.join(', ')} FROM ${view} WHERE ${where} ORDER BY cell`, (c: DuckDBValue[][]) => {
    const len = c[0]!.length;
    if (row + len > n) throw new Error('addresses table changed while the address index was read');
    for (let i = 0; i < len; i++, row++) {
      cells[row] = c[0]![i] as bigint; lats[row] = c[1]![i] as number; lngs[row] = c[2]![i] as number;
      let flags = 0;
      if (c[3]![i] === null) flags |= NULL_NUMBER; else numbers[row] = c[3]![i] as number;
      const parts: string[] = [];
      for (let f = 0; f < TEXT.length; f++) {
        const v = c[4 + f]![i] as string | null;
        if (v === null) flags |= 1 << f;
        parts.push(v ?? '');
      }
      nulls[row] = flags;
      textStart[row] = at;
      at += text.write(parts.join('\0'), at, 'utf8');
    }
  });
  if (row !== n || at !== textBytes) throw new Error('addresses table changed while the address index was read');
  textStart[n] = at;
  // The id is the first text field, always followed by a separator.
  const idOf = (i: number) => text.toString('utf8', textStart[i]!, text.indexOf(0, textStart[i]!));

  return {
    size: n,
    bytes,
    nearest(lat, lng, ranges, maxM) {
      let best = -1, bestD = Infinity, bestId = '';
      for (const [lo, hi] of ranges) {
        const end = lowerBound(cells, hi + 1n);
        for (let i = lowerBound(cells, lo); i < end; i++) {
          const d = haversineM(lat, lng, lats[i]!, lngs[i]!);
          if (!(d <= maxM) || d > bestD) continue;
          // Overlapping ranges may visit a row twice: the id comparison keeps the first.
          const id = idOf(i);
          if (d < bestD || id < bestId) { best = i; bestD = d; bestId = id; }
        }
      }
      if (best < 0) return null;
      const parts = text.toString('utf8', textStart[best]!, textStart[best + 1]!).split('\0');
      const flags = nulls[best]!;
      const field = (f: number) => (flags & (1 << f) ? null : parts[f]!);
      return {
        id: parts[0]!, longitude: lngs[best]!, latitude: lats[best]!, number: flags & NULL_NUMBER ? null : numbers[best]!,
        rep: field(1), street: field(2)!, postcode: field(3), locality_code: field(4)!, locality_name: field(5)!, label: field(6)!,
        parcels: field(7), locality_key: field(8)!, source: field(9)!, distance_m: bestD,
      };
    },
  };
}

const cache = indexCache<AddressIndex>('addresses', (warehouse, country) => buildAddressIndex(warehouse, country));

/** The address index of the warehouse's current files for a country, or null while it is built (the SQL path answers). */
export function addressIndexOf(warehouse: Warehouse, country: Country): AddressIndex | null {
  return cache.of(warehouse, country);
}

/** Resolves when the country's current address index is built (null: no table, over budget, or the read failed). */
export function addressIndexReady(warehouse: Warehouse, country: Country): Promise<AddressIndex | null> {
  return cache.ready(warehouse, country);
}
