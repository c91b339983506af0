/**
 * Shapefile reading: geometry from the `shapefile` package (streams the .shp record by
 * record), attributes from our own streaming DBF reader (./dbf.ts), CRS from the .prj
 * (./prj.ts). Also layer discovery in folders and zip archives.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Feature, Geometry } from 'geojson';
import { openShp } from 'shapefile';
import yauzl from 'yauzl';
import { DbfReader, resolveDbfEncoding, type DbfEncoding } from './dbf.ts';
import { crsFromWkt } from './prj.ts';

export type FeatureRow = {
  /** 1-based record number in the source (shapefile record / GeoJSON feature). */
  index: number;
  feature: Feature;
  /** 'EPSG:NNNN' when known; a WKT string for an unrecognised .prj; null = format default. */
  crs: string | null;
  /**
   * Bytes of the main file (.shp, .geojson, or the .gz as stored) read so far and its size, for a
   * job's percentage and remaining time. Read ahead by up to a buffer: an estimate, not an offset.
   */
  bytes?: { read: number; total: number };
};

/** Layer files found in a folder or zip, grouped by base name (key: lower-case base name). */
export type LayerFiles = { name: string; kind: 'shapefile' | 'geojson'; files: Map<string, string> };

const SHP_PARTS = new Set(['.shp', '.shx', '.dbf', '.prj', '.cpg']);
const GEOJSON_EXT = new Set(['.geojson', '.json']);

/** Groups entry paths (files in a folder or zip members) into layers. */
export function groupLayers(paths: readonly string[]): LayerFiles[] {
  const byBase = new Map<string, { name: string; files: Map<string, string> }>();
  const geojson: LayerFiles[] = [];
  for (const p of paths) {
    const ext = extname(p).toLowerCase();
    const base = basename(p, extname(p));
    if (GEOJSON_EXT.has(ext)) {
      geojson.push({ name: base, kind: 'geojson', files: new Map([[ext, p]]) });
      continue;
    }
    if (!SHP_PARTS.has(ext)) continue;
    // members of one shapefile share directory and base name (extension case may differ)
    const key = join(dirname(p), base).toLowerCase();
    let g = byBase.get(key);
    if (!g) byBase.set(key, (g = { name: base, files: new Map() }));
    g.files.set(ext, p);
  }
  const shapefiles: LayerFiles[] = [...byBase.values()]
    .filter((g) => g.files.has('.shp'))
    .map((g) => ({ name: g.name, kind: 'shapefile', files: g.files }));
  // A folder/zip with shapefiles: GeoJSON files next to them are ignored (often metadata).
  return shapefiles.length > 0 ? shapefiles : geojson;
}

/** Picks the layer named `layer` (case-insensitive base name, extension allowed). */
export function pickLayer(layers: LayerFiles[], layer: string | undefined, where: string): LayerFiles {
  const names = layers.map((l) => l.name);
  if (layers.length === 0) throw new Error(`No shapefile (.shp) or GeoJSON layer found in ${where}`);
  if (layer === undefined) {
    if (layers.length === 1) return layers[0];
    throw new Error(`${where} holds several layers (${names.join(', ')}): choose one with the 'layer' option`);
  }
  const wanted = basename(layer, extname(layer)).toLowerCase();
  const matches = layers.filter((l) => l.name.toLowerCase() === wanted);
  if (matches.length === 0) throw new Error(`Layer '${layer}' not found in ${where}; layers: ${names.join(', ')}`);
  if (matches.length > 1) throw new Error(`Layer '${layer}' is ambiguous in ${where} (${matches.length} matches in different folders)`);
  return matches[0];
}

async function readSmallText(path: string | undefined): Promise<string | null> {
  if (!path) return null;
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/** Sidecar path with the given extension, whatever its case (COMMUNE.PRJ / commune.prj). */
async function findSidecar(shpPath: string, ext: string): Promise<string | undefined> {
  const dir = dirname(shpPath);
  const base = basename(shpPath, extname(shpPath)).toLowerCase();
  const entries = await readdir(dir);
  const hit = entries.find((e) => extname(e).toLowerCase() === ext && basename(e, extname(e)).toLowerCase() === base);
  return hit ? join(dir, hit) : undefined;
}

/** Encoding the DBF attributes will be decoded with, and why (for logs / manifests). */
export type ShapefileInfo = { crs: string | null; dbfEncoding: DbfEncoding | null; fields: string[] };

/**
 * Streams the features of a loose shapefile. Deleted DBF records are skipped (their
 * number is not reused: `index` is always the record number).
 */
export async function* readShapefile(
  shpPath: string,
  opts: { encoding?: string; onInfo?: (info: ShapefileInfo) => void } = {},
): AsyncGenerator<FeatureRow> {
  const dbfPath = await findSidecar(shpPath, '.dbf');
  const prj = await readSmallText(await findSidecar(shpPath, '.prj'));
  const cpg = await readSmallText(await findSidecar(shpPath, '.cpg'));
  const crs = prj === null ? null : crsFromWkt(prj);
  const dbf = dbfPath ? await DbfReader.open(dbfPath, (ldid) => resolveDbfEncoding(opts.encoding, cpg, ldid)) : null;
  try {
    opts.onInfo?.({ crs, dbfEncoding: dbf?.encodingUsed ?? null, fields: dbf?.fields.map((f) => f.name) ?? [] });
    // A stream rather than the path: the package appends ".shp" to paths ending in ".SHP".
    const shpStream = createReadStream(shpPath, { highWaterMark: 1 << 20 });
    const total = (await stat(shpPath)).size;
    const shp = await openShp(shpStream);
    try {
      for (let index = 1; ; index++) {
        const { done, value } = await shp.read();
        if (done) break;
        const rec = dbf ? await dbf.next() : null;
        if (rec?.deleted) continue;
        const feature: Feature = {
          type: 'Feature',
          geometry: (value as Geometry | null) ?? null,
          properties: rec ? rec.properties : {},
        } as Feature;
        yield { index, feature, crs, bytes: { read: shpStream.bytesRead, total } };
      }
    } finally {
      await shp.cancel().catch(() => undefined);
      shpStream.destroy();
    }
  } finally {
    await dbf?.close();
  }
}

/** Layers (shapefiles, else GeoJSON files) directly inside a folder. */
export async function listFolderLayers(dir: string): Promise<LayerFiles[]> {
  const entries = await readdir(dir);
  return groupLayers(entries.map((e) => join(dir, e)));
}

/** Layers inside a zip (any depth). */
export async function listZipLayers(zipPath: string): Promise<LayerFiles[]> {
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false });
  try {
    const names: string[] = [];
    for await (const entry of zip.eachEntry()) {
      if (!entry.fileName.endsWith('/') && !entry.fileName.startsWith('__MACOSX/')) names.push(entry.fileName);
    }
    return groupLayers(names);
  } finally {
    zip.close();
  }
}

/**
 * Extracts the members of one zip layer into a fresh temp dir (streamed, no member is
 * held in memory). Returns the dir and the path of the main file (.shp / .geojson).
 */
export async function extractZipLayer(
  zipPath: string,
  layer: string | undefined,
): Promise<{ dir: string; main: string; kind: LayerFiles['kind'] }> {
  const chosen = pickLayer(await listZipLayers(zipPath), layer, zipPath);
  const wanted = new Set(chosen.files.values());
  const dir = await mkdtemp(join(tmpdir(), 'ingest-zip-'));
  try {
    const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false });
    try {
      for await (const entry of zip.eachEntry()) {
        if (!wanted.has(entry.fileName)) continue;
        const target = join(dir, basename(entry.fileName));
        await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(target));
      }
    } finally {
      zip.close();
    }
    const mainMember = chosen.kind === 'shapefile' ? chosen.files.get('.shp')! : [...chosen.files.values()][0];
    return { dir, main: join(dir, basename(mainMember)), kind: chosen.kind };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
