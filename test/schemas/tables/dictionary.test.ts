import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, quotedString } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { SOURCES } from '../../../datasets/catalogue.ts';
import { TableWriter, writeSortedParquet } from '../../../ingest/core/table-writer.ts';
import { TABLE_COLUMNS } from '../../../schemas/tables/columns.ts';
import { dataDictionary, tableColumns } from '../../../schemas/tables/dictionary.ts';
import { TABLE_NAMES } from '../../../schemas/tables/index.ts';
import { POINT_COLUMNS } from '../../../schemas/tables/points.ts';

describe('docs/data-dictionary.md', () => {
  it('is the one generated from schemas/tables/ (run `npm run dictionary` after changing a table)', () => {
    expect(readFileSync(new URL('../../../docs/data-dictionary.md', import.meta.url), 'utf8')).toBe(`${dataDictionary()}\n`);
  });

  it('names every table, every column with its type and nullability, and every source feeding a table with its licence', () => {
    const doc = dataDictionary();
    for (const table of TABLE_NAMES) {
      expect(doc).toContain(`## \`${table}\``);
      for (const [column, type] of Object.entries(TABLE_COLUMNS[table])) expect(doc).toMatch(new RegExp(`\\| \`${column}\` \\| ${type.replace(/[[\]()]/g, '\\$&')} \\|`));
    }
    for (const s of SOURCES.filter((x) => x.tables.length > 0)) expect(doc).toContain(`| \`${s.id}\` `);
    expect(tableColumns('sales').find((c) => c.name === 'parcels')).toMatchObject({ type: 'VARCHAR[]', nullable: false });
    expect(tableColumns('sales').find((c) => c.name === 'lots')).toMatchObject({ type: 'VARCHAR[]', nullable: true });
    expect(tableColumns('sales').find((c) => c.name === 'price_per_m2')).toMatchObject({ unit: 'EUR/m²', nullable: true });
  });

  it('lists the columns a written file holds, in its order, with the types DuckDB reads back', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lds-dictionary-'));
    const w = await TableWriter.open({ dataDir, country: 'fr', table: 'places', partition: 'p', columns: POINT_COLUMNS, orderBy: 'cell' });
    w.append(['fr.test:1', 1n, 2.35, 48.85, 'education.school', null, null, 'fr.stations']);
    const { path } = await w.finish();
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      // Read without the GeoParquet conversion, as a reader without geometry support sees the file.
      await c.run('SET enable_geoparquet_conversion = false');
      // The file alone (the hive path would add `country`).
      const described = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${quotedString(path)}, hive_partitioning = false)`)).getRowObjectsJS() as { column_name: string; column_type: string }[];
      const expected = tableColumns('places');
      expect(described.map((d) => d.column_name)).toEqual(expected.map((e) => e.name));
      for (const e of expected.filter((x) => !['geom', 'bbox'].includes(x.name))) expect(described.find((d) => d.column_name === e.name)!.column_type).toBe(e.type);
      // The licence and attribution of its source ride in the file.
      const kv = (await c.runAndReadAll(`SELECT decode(value) AS v FROM parquet_kv_metadata(${quotedString(path)}) WHERE decode(key) = 'sources'`)).getRowObjectsJS();
      const stations = SOURCES.find((s) => s.id === 'fr.stations')!;
      expect(JSON.parse(kv[0]!.v as string)).toEqual([{ id: 'fr.stations', name: stations.name, producer: stations.producer, licence: stations.licence, licence_url: stations.licence_url, attribution: stations.attribution }]);
      // A source the catalogue does not know (an operator-named generic input): said so, not invented.
      const p = await writeSortedParquet(c, `SELECT 'x' AS id, 'fr.addresses.commune' AS source`, { dataDir, country: 'fr', table: 't', partition: 'p', orderBy: 'id' });
      const unknown = (await c.runAndReadAll(`SELECT decode(value) AS v FROM parquet_kv_metadata(${quotedString(p.pendingPath)}) WHERE decode(key) = 'sources'`)).getRowObjectsJS();
      expect(JSON.parse(unknown[0]!.v as string)).toEqual([{ id: 'fr.addresses.commune', name: null, producer: null, licence: null, licence_url: null, attribution: null }]);
      await p.discard();
    } finally { c.closeSync(); db.closeSync(); }
  });
});
