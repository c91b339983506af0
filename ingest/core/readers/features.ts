/**
 * Streaming feature reader for the vector formats we ingest. Memory stays flat: one
 * feature at a time (plus read buffers); zip members are extracted to a temp dir by
 * streaming, and the temp dir is removed when iteration ends (normally or early).
 *
 * Inputs (chosen by path):
 * - `.geojson` / `.json` (optionally `.gz`): see ./geojson.ts;
 * - `.shp` with `.dbf` / `.prj` / `.cpg` beside it: see ./shapefile.ts;
 * - `.zip` holding shapefiles (or, without any shapefile, GeoJSON files): `opts.layer`
 *   picks one by base name, case-insensitively (required when there are several);
 * - a folder holding shapefiles (or GeoJSON files): same `layer` rule.
 *
 * `opts.encoding` applies to DBF attributes (overriding .cpg and language driver) and to
 * GeoJSON text (default UTF-8).
 *
 * `crs` of each row: 'EPSG:NNNN' when determined (GeoJSON `crs` member, .prj authority or
 * well-known name), the raw WKT for an unrecognised .prj (proj4/`toWgs84` accept it), or
 * null: the format default (WGS84 for GeoJSON; unknown for a shapefile without .prj).
 */
import { rm } from 'node:fs/promises';
import { extname } from 'node:path';
import { createProgress } from '../progress.ts';
import { readGeoJson } from './geojson.ts';
import {
  extractZipLayer,
  isDirectory,
  listFolderLayers,
  pickLayer,
  readShapefile,
  type FeatureRow,
} from './shapefile.ts';

export type { FeatureRow } from './shapefile.ts';

export type FeatureReadOptions = {
  /** Text encoding of DBF attributes / GeoJSON (see ./encoding.ts for labels). */
  encoding?: string;
  /** Layer (base name, case-insensitive) inside a zip or folder. */
  layer?: string;
  /** Shows the job's progress (features, percentage of the main file's bytes, remaining time) under this label. */
  progress?: { label: string; out?: NodeJS.WriteStream };
};

export async function* readFeatures(path: string, opts: FeatureReadOptions = {}): AsyncGenerator<FeatureRow> {
  if (!opts.progress) { yield* readFeatureRows(path, opts); return; }
  const progress = createProgress(opts.progress.label, null, opts.progress.out);
  let rows = 0;
  for await (const row of readFeatureRows(path, opts)) {
    progress.tick(++rows, row.bytes?.read, row.bytes?.total);
    yield row;
  }
  progress.done();
}

async function* readFeatureRows(path: string, opts: FeatureReadOptions): AsyncGenerator<FeatureRow> {
  if (await isDirectory(path)) {
    const layer = pickLayer(await listFolderLayers(path), opts.layer, path);
    yield* readLayerFile(layer.kind === 'shapefile' ? layer.files.get('.shp')! : [...layer.files.values()][0], opts);
    return;
  }
  const ext = extname(path.replace(/\.gz$/i, '')).toLowerCase();
  if (ext === '.zip') {
    const { dir, main } = await extractZipLayer(path, opts.layer);
    try {
      yield* readLayerFile(main, opts);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return;
  }
  yield* readLayerFile(path, opts);
}

function readLayerFile(path: string, opts: FeatureReadOptions): AsyncGenerator<FeatureRow> {
  const ext = extname(path.replace(/\.gz$/i, '')).toLowerCase();
  if (ext === '.shp') {
    if (/\.gz$/i.test(path)) throw new Error(`Gzipped shapefiles are not supported: ${path}`);
    return readShapefile(path, { encoding: opts.encoding });
  }
  if (ext === '.geojson' || ext === '.json' || ext === '.geojsonl' || ext === '.geojsons' || ext === '.ndjson') {
    return readGeoJson(path, { encoding: opts.encoding });
  }
  throw new Error(`Unsupported vector format '${ext || path}' (expected .geojson, .json, .shp, .zip or a folder)`);
}
