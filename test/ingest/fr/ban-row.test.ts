import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { BAN_HEADER, BanRow, banPosition } from '../../../ingest/fr/ban-row.ts';
import { BAN_ROW_SQL } from '../../../ingest/fr/ban.ts';
import { BAN_ROWS, banLine } from '../../helpers/fixture-data.ts';

// Variants of a good row, each breaking (or not) one rule of the schema.
const good = Object.fromEntries(banLine(BAN_ROWS[0]!).split(';').map((v, i) => [BAN_HEADER[i]!, v])) as Record<string, string>;
const variants: [string, Partial<Record<string, string>>][] = [
  ['good', {}], ['empty id', { id: '' }], ['numero text', { numero: 'douze' }], ['numero too long', { numero: '123456' }], ['numero zero', { numero: '0' }],
  ['empty street', { nom_voie: '' }], ['postcode 4 digits', { code_postal: '7500' }], ['no postcode', { code_postal: '' }],
  ['insee Corsica', { code_insee: '2A004' }], ['insee bad', { code_insee: '7510' }], ['empty commune', { nom_commune: '' }],
  ['x text', { x: 'abc' }], ['no x/y', { x: '', y: '' }], ['lon 200', { lon: '200' }], ['lat -95', { lat: '-95' }], ['lon text', { lon: 'est' }],
  ['no lon/lat', { lon: '', lat: '' }], ['no position at all', { lon: '', lat: '', x: '', y: '' }], ['rep bis', { rep: 'bis' }],
  ['decimal comma', { lon: '2,36' }], ['negative lon', { lon: '-0.5' }],
];

describe('BanRow and its SQL form', () => {
  it('accept and refuse the same rows', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      for (const [name, change] of variants) {
        const record = { ...good, ...change } as Record<string, string>;
        const parsed = BanRow.safeParse(record);
        const zodOk = parsed.success && typeof banPosition(parsed.data) !== 'string';
        const cols = BAN_HEADER.map((h, i) => `$${i + 1}::VARCHAR AS "${h}"`).join(', ');
        const values = BAN_HEADER.map((h) => (record[h] === '' ? null : record[h]!));
        const r = await c.runAndReadAll(`SELECT (${BAN_ROW_SQL}) AS ok FROM (SELECT ${cols}) raw`, values);
        expect(r.getRowObjectsJS()[0]!.ok, name).toBe(zodOk);
      }
    } finally { c.closeSync(); db.closeSync(); }
  });
});
