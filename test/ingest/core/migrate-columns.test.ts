import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateListColumns } from '../../../ingest/core/migrate-columns.ts';
import { recordPartition } from '../../../ingest/core/manifest.ts';
import { fileSha256, writeSortedParquet } from '../../../ingest/core/table-writer.ts';
import { partitionFile, partitionPath, tableDir } from '../../../schemas/tables/layout.ts';
import { Manifest, TABLE_SCHEMA_VERSION } from '../../../schemas/tables/manifest.ts';
import { AddressRow } from '../../../schemas/tables/addresses.ts';
import { nearestAddressSql } from '../../../api/location/search/official.ts';
import { openWarehouse } from '../../../api/core/warehouse.ts';
import { rangesAround } from '../../../schemas/tables/cells.ts';
import { pointCellId } from '../../../ingest/core/point-cell.ts';

let db: DuckDBInstance;
let c: DuckDBConnection;
beforeAll(async () => { db = await DuckDBInstance.create(':memory:'); c = await db.connect(); });
afterAll(() => { c.closeSync(); db.closeSync(); });
const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJS();

/**
 * Addresses as the writer made them before addresses.parcels became a list (schema version 2):
 * today's layout and GeoParquet columns, parcels as `|`-joined text (null: none published).
 */
const OLD_ROWS = [
  { id: 'a1', lng: 2.3615, lat: 48.8630, parcels: "'75103000AK0034'" },
  { id: 'a2', lng: 2.3617, lat: 48.8631, parcels: "'75103000AK0036|75103000AK0035'" },
  { id: 'a3', lng: 2.3619, lat: 48.8632, parcels: 'NULL' },
  { id: 'a4', lng: 2.3621, lat: 48.8633, parcels: "''" },
];
const CELLS = OLD_ROWS.map((r) => pointCellId(r.lat, r.lng));

async function oldPartition(dataDir: string, partition: string) {
  const select = OLD_ROWS.map((r, i) => `SELECT '${r.id}' AS id, ${CELLS[i]}::BIGINT AS cell, ${r.lng}::DOUBLE AS longitude, ${r.lat}::DOUBLE AS latitude, ${i + 1}::INTEGER AS number,
    NULL::VARCHAR AS rep, 'Rue de Bretagne' AS street, '75003' AS postcode, '75103' AS locality_code, 'Paris 3e Arrondissement' AS locality_name,
    '${i + 1} Rue de Bretagne 75003 Paris 3e Arrondissement' AS label, 'rue bretagne' AS street_key, 'paris 3e arrondissement' AS locality_key,
    'entrée' AS position_kind, ${r.parcels}::VARCHAR AS parcels, 'fr.ban' AS source`).join(' UNION ALL ');
  const prepared = await writeSortedParquet(c, select, { dataDir, country: 'fr', table: 'addresses', partition, orderBy: 'cell' });
  const written = await prepared.commit();
  await recordPartition(dataDir, 'fr', { table: 'addresses', partition, file: partitionFile('fr', 'addresses', partition), job: 'fr.ban',
    sources: [{ id: 'fr.ban', input: `${partition}.csv`, input_sha256: 'x', published_at: null, downloaded_from: null }], rows: written.rows, rejects: 0, rejects_file: null,
    imported_at: '2026-11-20T10:00:00.000Z', schema_version: 2, sha256: written.sha256 });
  return written;
}

describe('rewriting addresses partitions whose parcels are text', () => {
  it('rewrites them in place with parcels as a Parquet list, every other column, the GeoParquet metadata and the manifest following; once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lds-lists-'));
    const old = await oldPartition(dataDir, 'adresses-75');
    const file = partitionPath(dataDir, 'fr', 'addresses', 'adresses-75');
    expect((await rows(`SELECT typeof(parcels) AS t FROM read_parquet(${quotedString(file)}) LIMIT 1`))[0]!.t).toBe('VARCHAR');
    const before = await rows(`SELECT * EXCLUDE (parcels) FROM read_parquet(${quotedString(file)}) ORDER BY id`);
    const text = await rows(`SELECT id, parcels FROM read_parquet(${quotedString(file)}) ORDER BY id`);

    const lines: string[] = [];
    expect(await migrateListColumns(dataDir, ['fr', 'be', 'ca'], (l) => lines.push(l))).toEqual(['fr/addresses/adresses-75']);
    expect(lines).toEqual(['rewrote tables/addresses/country=fr/adresses-75.parquet: parcels as Parquet lists']);

    // The list is the text split on |, in its order; null stays null, '' is the empty list.
    const after = await rows(`SELECT id, parcels, typeof(parcels) AS t FROM read_parquet(${quotedString(file)}) ORDER BY id`);
    expect(after.map((r) => r.t)).toEqual(['VARCHAR[]', 'VARCHAR[]', 'VARCHAR[]', 'VARCHAR[]']);
    expect(after.map((r) => r.parcels)).toEqual(text.map((r) => (r.parcels === null ? null : r.parcels === '' ? [] : (r.parcels as string).split('|'))));
    expect(after.map((r) => r.parcels)).toEqual([['75103000AK0034'], ['75103000AK0036', '75103000AK0035'], null, []]);
    // Every other column as it was (geom and bbox computed again from the same positions), and the rows valid today.
    expect(await rows(`SELECT * EXCLUDE (parcels) FROM read_parquet(${quotedString(file)}) ORDER BY id`)).toEqual(before);
    for (const r of await rows(`SELECT * EXCLUDE (geom, bbox) FROM read_parquet(${quotedString(file)})`)) AddressRow.parse(r);
    const kv = await rows(`SELECT decode(key) AS k FROM parquet_kv_metadata(${quotedString(file)}) ORDER BY k`);
    expect(kv.map((r) => r.k)).toEqual(expect.arrayContaining(['geo', 'sources']));

    // The manifest follows: the new file's checksum, schema version 3; the rest of the entry kept.
    const manifest = Manifest.parse(JSON.parse(await readFile(join(dataDir, 'fr/manifest.json'), 'utf8')));
    const entry = manifest.partitions.find((p) => p.partition === 'adresses-75')!;
    expect(entry.sha256).not.toBe(old.sha256);
    expect(entry).toMatchObject({ sha256: await fileSha256(file), schema_version: TABLE_SCHEMA_VERSION, rows: 4, job: 'fr.ban', imported_at: '2026-11-20T10:00:00.000Z' });
    expect(TABLE_SCHEMA_VERSION).toBe(3);
    // Atomic: written beside the file and renamed over it, nothing left behind.
    expect(readdirSync(tableDir(dataDir, 'fr', 'addresses'))).toEqual(['adresses-75.parquet']);

    // Done once: nothing to rewrite, the file untouched.
    const mtime = statSync(file).mtimeMs;
    expect(await migrateListColumns(dataDir, ['fr'])).toEqual([]);
    expect(statSync(file).mtimeMs).toBe(mtime);

    // The server reads the rewritten file: the nearest address with its parcels as a list.
    const warehouse = await openWarehouse(dataDir, { tables: ['addresses'], memoryTables: {} });
    try {
      const near = await nearestAddressSql(warehouse, 'fr', 48.8631, 2.3617, rangesAround(48.8631, 2.3617, 10, 1), 25);
      expect(near).toMatchObject({ id: 'a2', parcels: ['75103000AK0036', '75103000AK0035'] });
    } finally {
      await warehouse.close();
    }
  });

  it('leaves files already holding lists, and other tables, alone', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lds-lists-'));
    await oldPartition(dataDir, 'adresses-75');
    expect(await migrateListColumns(dataDir, ['fr'])).toEqual(['fr/addresses/adresses-75']);
    // A second partition written the old way beside a migrated one: only it is rewritten.
    await oldPartition(dataDir, 'adresses-33');
    const kept = partitionPath(dataDir, 'fr', 'addresses', 'adresses-75');
    const sha = await fileSha256(kept);
    expect(await migrateListColumns(dataDir, ['fr'])).toEqual(['fr/addresses/adresses-33']);
    expect(await fileSha256(kept)).toBe(sha);
    // No data folder at all: nothing to do.
    expect(await migrateListColumns(join(dataDir, 'none'), ['fr', 'be', 'ca'])).toEqual([]);
    expect(existsSync(join(dataDir, 'none'))).toBe(false);
  });
});
