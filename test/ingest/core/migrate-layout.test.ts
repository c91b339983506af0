import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, listValue, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLegacyLayout } from '../../../ingest/core/migrate-layout.ts';
import { TableWriter } from '../../../ingest/core/table-writer.ts';
import { ADDRESS_COLUMNS } from '../../../schemas/tables/addresses.ts';
import { partitionPath, tableRoot } from '../../../schemas/tables/layout.ts';
import { Manifest, TABLE_SCHEMA_VERSION } from '../../../schemas/tables/manifest.ts';

let db: DuckDBInstance;
let c: DuckDBConnection;
beforeAll(async () => { db = await DuckDBInstance.create(':memory:'); c = await db.connect(); });
afterAll(() => { c.closeSync(); db.closeSync(); });
const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJS();

const address = (id: string, lng: number, lat: number, cell: bigint) =>
  [id, cell, lng, lat, 1, null, 'Rue de Rivoli', '75001', '75101', 'Paris', `1 Rue de Rivoli 75001 Paris`, 'rivoli', 'paris', 'entrée', listValue(['75101000AB0001', '75101000AB0002']), 'fr.ban'];

describe('the layout of data/tables/', () => {
  it('is read with one path by DuckDB, every country as a hive column; cells as plain INT64 (a long for Spark)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lds-layout-'));
    for (const [country, id, lng, lat] of [['fr', 'a', 2.35, 48.85], ['be', 'b', 4.35, 50.85]] as const) {
      const w = await TableWriter.open({ dataDir, country, table: 'addresses', partition: 'p', columns: ADDRESS_COLUMNS, orderBy: 'cell' });
      w.append(address(id, lng, lat, 0x8f1fb46622d8591n));
      await w.finish();
    }
    expect(existsSync(join(dataDir, 'tables/addresses/country=fr/p.parquet'))).toBe(true);
    const all = await rows(`SELECT country, id FROM read_parquet(${quotedString(join(tableRoot(dataDir, 'addresses'), '*/*.parquet'))}, hive_partitioning = true) ORDER BY id`);
    expect(all).toEqual([{ country: 'fr', id: 'a' }, { country: 'be', id: 'b' }]);
    const [schema] = await rows(`SELECT type, logical_type, converted_type FROM parquet_schema(${quotedString(partitionPath(dataDir, 'fr', 'addresses', 'p'))}) WHERE name = 'cell'`);
    // Signed INT_64: Spark LongType, Trino bigint (a UBIGINT is written UINT_64, which Spark reads as decimal(20,0)).
    expect(schema).toEqual({ type: 'INT64', logical_type: null, converted_type: 'INT_64' });
  });
});

describe('migrating the earlier layout', () => {
  it('moves data/<cc>/<table>/*.parquet to data/tables/<table>/country=<cc>/, converting the types, and the manifest follows', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lds-migrate-'));
    const legacy = join(dataDir, 'fr/addresses');
    await mkdir(legacy, { recursive: true });
    // A file as the earlier writer made it: UBIGINT cell, no geometry.
    await c.run(`COPY (SELECT 'a' AS id, ${0x8f1fb46622d8591n}::UBIGINT AS cell, 2.35::DOUBLE AS longitude, 48.85::DOUBLE AS latitude, 1 AS number, NULL::VARCHAR AS rep,
      'Rue' AS street, '75001' AS postcode, '75101' AS locality_code, 'Paris' AS locality_name, '1 Rue' AS label, 'rue' AS street_key, 'paris' AS locality_key,
      NULL::VARCHAR AS position_kind, '75101000AB0001' AS parcels, 'fr.ban' AS source) TO ${quotedString(join(legacy, 'adresses-75.parquet'))} (FORMAT parquet)`);
    const manifest: Manifest = { country: 'fr', schema_version: 1, updated_at: '2026-01-01T00:00:00.000Z', partitions: [{
      table: 'addresses', partition: 'adresses-75', file: 'addresses/adresses-75.parquet', job: 'fr.ban', sources: [], rows: 1, rejects: 0, rejects_file: null,
      imported_at: '2026-01-01T00:00:00.000Z', schema_version: 1, sha256: 'old' }] };
    await writeFile(join(dataDir, 'fr/manifest.json'), JSON.stringify(manifest));
    const moved = await migrateLegacyLayout(dataDir, ['fr', 'be']);
    expect(moved).toEqual(['fr/addresses/adresses-75']);
    expect(existsSync(legacy)).toBe(false);
    const file = partitionPath(dataDir, 'fr', 'addresses', 'adresses-75');
    const [row] = await rows(`SELECT typeof(cell) AS t, cell, ST_AsText(geom) AS g, parcels FROM read_parquet(${quotedString(file)})`);
    expect(row).toEqual({ t: 'BIGINT', cell: 0x8f1fb46622d8591n, g: 'POINT (2.35 48.85)', parcels: ['75101000AB0001'] });
    const after = Manifest.parse(JSON.parse(await readFile(join(dataDir, 'fr/manifest.json'), 'utf8')));
    expect(after.partitions[0]).toMatchObject({ file: 'tables/addresses/country=fr/adresses-75.parquet', schema_version: TABLE_SCHEMA_VERSION, rows: 1 });
    expect(after.partitions[0]!.sha256).not.toBe('old');
    // Done once: a second run finds nothing to move.
    expect(await migrateLegacyLayout(dataDir, ['fr'])).toEqual([]);
  });
});
