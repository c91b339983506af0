import { SALE_UNIT_TYPE } from './sales.ts';
import type { z } from 'zod';
import { SOURCES } from '../../datasets/catalogue.ts';
import { TABLE_COLUMNS } from './columns.ts';
import { TABLES, TABLE_NAMES, type TableName } from './index.ts';
import { BBOX_COLUMN, GEOMETRY_COLUMN, PARTITION_KEY, geoShapeOf } from './layout.ts';

/** How Spark and Trino see a DuckDB column type of the files. */
const READ_AS: Record<string, string> = {
  VARCHAR: 'string / varchar', 'VARCHAR[]': 'array<string> / array(varchar)', DOUBLE: 'double', INTEGER: 'int / integer',
  BIGINT: 'long / bigint', TINYINT: 'byte / tinyint', BOOLEAN: 'boolean', DATE: 'date',
  [SALE_UNIT_TYPE]: 'array<struct<parcel, lots array<string>, kind, surface double, rooms int, carrez double>> / array(row(...))',
};

interface ColumnDoc { name: string; type: string; readAs: string; unit: string; nullable: boolean; description: string }

/** The meta of a row-schema field (`.describe()`, `.meta({ unit })`). */
function metaOf(field: z.ZodType): { description?: string; unit?: string } {
  return (field.meta() ?? {}) as { description?: string; unit?: string };
}

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function tableColumns(table: TableName): ColumnDoc[] {
  const shape = (TABLES[table] as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
  const types = TABLE_COLUMNS[table];
  const out: ColumnDoc[] = Object.entries(types).map(([name, type]) => {
    const field = shape[name];
    if (!field) throw new Error(`${table}.${name} has a column type but no field in its row schema`);
    const m = metaOf(field);
    return { name, type, readAs: READ_AS[type] ?? type, unit: m.unit ?? '', nullable: field.isNullable() || field.isOptional(), description: m.description ?? '' };
  });
  const geo = geoShapeOf(Object.keys(types));
  if (geo) {
    out.push(
      { name: GEOMETRY_COLUMN, type: 'BLOB (WKB)', readAs: 'binary / varbinary', unit: 'degree (WGS84, OGC:CRS84)', nullable: geo === 'point' && out.some((c) => c.name === 'longitude' && c.nullable),
        description: `GeoParquet primary geometry, WKB: ${geo === 'point' ? 'the Point of longitude, latitude' : 'the outline of `geometry`'}` },
      { name: BBOX_COLUMN, type: 'STRUCT(xmin, ymin, xmax, ymax DOUBLE)', readAs: 'struct / row', unit: 'degree', nullable: geo === 'point' && out.some((c) => c.name === 'longitude' && c.nullable),
        description: 'GeoParquet 1.1 bbox covering of `geom`' },
    );
  }
  return out;
}

/** docs/data-dictionary.md, generated (test/schemas/tables/dictionary.test.ts keeps the file equal to it). */
export function dataDictionary(): string {
  const lines: string[] = [
    '# Data dictionary',
    '',
    '<!-- Generated from schemas/tables/ and datasets/ by `npm run dictionary`; do not edit by hand:',
    '     test/schemas/tables/dictionary.test.ts fails when this file is out of date. -->',
    '',
    'Every table of the data folder, as analysts open it: `data/tables/<table>/country=<cc>/<partition>.parquet`',
    `(hive-style: \`${PARTITION_KEY}\` is a column when the table is read from its folder, not in the files).`,
    'Layout, `cell` type and GeoParquet: [architecture.md](architecture.md#files-for-analysts-layout-types-geometries).',
    '',
    '- **type**: the DuckDB type written; **Spark / Trino**: how they read it.',
    '- **null**: `yes` when the column may be null. A `no` column always holds a value; the Parquet',
    '  files still declare every column optional (DuckDB 1.5 writes no REQUIRED columns), so readers',
    '  see them as nullable.',
    '- **unit**: of the value, where it has one (`zone_values` and their measures: the row\'s `unit` column).',
    '- Each file also carries in its key-value metadata `sources` (id, producer, licence, licence URL,',
    '  attribution of the sources of its rows), for tables with a geometry `geo` (GeoParquet 1.1), and',
    '  for the covers (`*_cells`) `h3_cell_directory`: `{"resolution": r, "cells": [...]}`, the H3',
    '  cells (hex) at resolution r (7, coarser for large covers) holding the file\'s cells (a cell',
    '  coarser than r listed as itself), to find which files can hold a cell without opening them;',
    '  `data/<cc>/manifest.json` lists each partition\'s sources with their licence and attribution.',
    '',
  ];
  for (const table of TABLE_NAMES) {
    lines.push(`## \`${table}\``, '');
    const sources = SOURCES.filter((s) => s.tables.includes(table));
    if (sources.length > 0) {
      lines.push('| source | country | producer | licence | attribution |', '|---|---|---|---|---|');
      for (const s of sources) lines.push(`| \`${s.id}\` ${cell(s.name)} | ${s.country} | ${cell(s.producer)} | [${cell(s.licence)}](${s.licence_url}) | ${cell(s.attribution)} |`);
    } else {
      lines.push('Sources: computed by the jobs from other tables, or named by the operator (generic jobs: `<country>.<partition>`).');
    }
    lines.push('', '| column | type | Spark / Trino | unit | null | description |', '|---|---|---|---|---|---|');
    for (const c of tableColumns(table)) lines.push(`| \`${c.name}\` | ${c.type} | ${c.readAs} | ${cell(c.unit)} | ${c.nullable ? 'yes' : 'no'} | ${cell(c.description)} |`);
    lines.push('');
  }
  return lines.join('\n');
}
