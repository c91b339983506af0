/**
 * Streaming GeoJSON reader: memory holds one feature at a time (plus one read chunk).
 *
 * A small incremental scanner finds the top-level structure and cuts out the text of
 * each feature, which is then given to the native JSON.parse (much faster than a
 * token-level streaming parser, and member order inside features does not matter:
 * `coordinates` before `type` is fine).
 *
 * Accepted layouts:
 * - a FeatureCollection (`features` array streamed; other top-level members such as
 *   `crs`, `name`, `bbox` are parsed whole);
 * - a single Feature or a bare Geometry (wrapped in a Feature with empty properties);
 * - a top-level array of features;
 * - newline-delimited GeoJSON / GeoJSONSeq (several top-level values, RS separators ok).
 *
 * CRS: the top-level `crs` member (GeoJSON 2008) - `{type:'name', properties:{name}}`
 * with an EPSG URN/code -> 'EPSG:NNNN', CRS84 -> 'EPSG:4326', other names returned as
 * is; `{type:'EPSG', properties:{code}}` -> 'EPSG:code'. No member -> null (RFC 7946:
 * WGS84). When `crs` comes after `features` (it should come first), the last 64 KiB of
 * the file are searched for it before the first feature is emitted (uncompressed files).
 */
import { open, stat } from 'node:fs/promises';
import type { Feature, Geometry } from 'geojson';
import { readTextChunks } from './text-source.ts';
import type { FeatureRow } from './shapefile.ts';
import { parseEpsgCode } from '../reproject.ts';

const GEOMETRY_TYPES = new Set([
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
]);

/** CRS string from a GeoJSON `crs` member value (see module comment). */
export function crsFromGeoJsonMember(crs: unknown): string | null {
  if (!crs || typeof crs !== 'object') return null;
  const c = crs as { type?: unknown; properties?: { name?: unknown; code?: unknown } };
  const props = c.properties ?? {};
  if (typeof props.name === 'string') {
    const name = props.name.trim();
    if (/crs:?84$/i.test(name)) return 'EPSG:4326';
    const code = parseEpsgCode(name);
    return code !== null ? `EPSG:${code}` : name;
  }
  if (props.code !== undefined && /^\d+$/.test(String(props.code))) return `EPSG:${props.code}`;
  return null;
}

/**
 * Scanner events: a feature text (with its parsed value when the scanner parsed it), a top-level member (`key`, value text), the start of
 * the `features` array, the end of a top-level object.
 */
type Emit = (kind: 'feature' | 'member' | 'featuresStart' | 'objectEnd', text: string, key?: string, value?: unknown) => void;

/** Lines that were not a whole feature after which the scanner stops trying lines (GeoJsonScanner.wholeLine). */
const MAX_LINE_FAILURES = 8;

const enum S {
  Top, // between top-level values
  ObjKey, // in the top-level object, expecting a key, ',' or '}'
  ObjColon, // after a key, expecting ':'
  ObjValue, // expecting a member value
  Features, // inside the features array (or a top-level array): element, ',' or ']'
  Capture, // capturing a value
}

/**
 * Incremental scanner. `push(chunk)` emits complete feature texts and top-level member
 * texts through `emit`, in file order.
 */
export class GeoJsonScanner {
  private state: S = S.Top;
  private afterCapture: S = S.Top;
  private captureKind: 'feature' | 'member' | 'key' | 'topvalue' = 'feature';
  private parts: string[] = [];
  private partsLen = 0;
  private depth = 0;
  private inString = false;
  private escape = false;
  private primitive = false;
  private key = '';
  /** 'object' when inside a top-level object, 'array' for a top-level array. */
  private container: 'object' | 'array' | null = null;

  constructor(
    private readonly emit: Emit,
    private readonly maxValueChars = 256 * 1024 * 1024,
  ) {}

  push(t: string): void {
    const n = t.length;
    let i = 0;
    while (i < n) {
      if (this.state === S.Capture) {
        i = this.capture(t, i);
        continue;
      }
      const c = t.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x1e || c === 0xfeff) {
        i++;
        continue;
      }
      switch (this.state) {
        case S.Top:
          if (c === 0x7b /* { */) {
            this.container = 'object';
            this.state = S.ObjKey;
            i++;
          } else if (c === 0x5b /* [ */) {
            this.container = 'array';
            this.state = S.Features;
            i++;
          } else if (c === 0x2c /* , */) {
            i++;
          } else throw new Error(`Invalid GeoJSON: unexpected '${t[i]}' at top level`);
          break;
        case S.ObjKey:
          if (c === 0x2c) i++;
          else if (c === 0x7d /* } */) {
            this.emit('objectEnd', '');
            this.container = null;
            this.state = S.Top;
            i++;
          } else if (c === 0x22 /* " */) {
            this.startCapture('key', S.ObjColon);
          } else throw new Error(`Invalid GeoJSON: unexpected '${t[i]}' where a member name was expected`);
          break;
        case S.ObjColon:
          if (c !== 0x3a) throw new Error(`Invalid GeoJSON: expected ':' after member "${this.key}"`);
          this.state = S.ObjValue;
          i++;
          break;
        case S.ObjValue:
          if (this.key === 'features' && c === 0x5b) {
            this.emit('featuresStart', '');
            this.state = S.Features;
            i++;
          } else this.startCapture('member', S.ObjKey);
          break;
        case S.Features:
          if (c === 0x2c) i++;
          else if (c === 0x5d /* ] */) {
            this.state = this.container === 'array' ? S.Top : S.ObjKey;
            if (this.container === 'array') this.container = null;
            i++;
          } else if (c === 0x7b && this.lineFailures < MAX_LINE_FAILURES) {
            const end = this.wholeLine(t, i);
            if (end < 0) this.startCapture('feature', S.Features);
            else i = end;
          } else this.startCapture('feature', S.Features);
          break;
      }
    }
  }

  private lineFailures = 0;

  /**
   * Files of one feature per line (Etalab's, GeoJSONSeq): the feature starting at `i` is the rest
   * of its line (less a trailing comma) when that text parses, as JSON.parse then read it whole,
   * ending at the matching brace the character scan would find; the scan is skipped (it took
   * about a tenth of a cadastre run). Returns where scanning goes on, or -1 to scan: a line not
   * in this chunk, a feature spanning lines, text that does not parse (scanned, so the error is
   * the scan's). Past a few failures the scanner stops trying: the layout is another.
   */
  private wholeLine(t: string, i: number): number {
    const nl = t.indexOf('\n', i);
    if (nl < 0 || nl - i > this.maxValueChars) return -1;
    const blank = (k: number) => { const c = t.charCodeAt(k); return c === 0x0d || c === 0x20 || c === 0x09; };
    let end = nl;
    while (end > i && blank(end - 1)) end--;
    if (t.charCodeAt(end - 1) === 0x2c) { end--; while (end > i && blank(end - 1)) end--; }
    if (t.charCodeAt(end - 1) !== 0x7d) { this.lineFailures++; return -1; }
    const text = t.slice(i, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.lineFailures++;
      return -1;
    }
    this.emit('feature', text, undefined, value);
    return end;
  }

  /** Call at end of input: throws when the document is truncated. */
  end(): void {
    if (this.state === S.Capture && this.primitive && this.captureKind === 'member') {
      this.finishCapture();
    }
    if (this.state !== S.Top) throw new Error('Invalid GeoJSON: unexpected end of file');
  }

  private startCapture(kind: GeoJsonScanner['captureKind'], after: S): void {
    this.captureKind = kind;
    this.afterCapture = after;
    this.state = S.Capture;
    this.parts = [];
    this.partsLen = 0;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
    this.primitive = false;
    this.started = false;
  }

  private started = false;

  /** Scans from `i`; returns the index where scanning stopped (value end or chunk end). */
  private capture(t: string, i: number): number {
    const n = t.length;
    const start = i;
    let bs = -1; // next backslash at or after i (n when none), looked up lazily
    if (!this.started) {
      this.started = true;
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        this.inString = true;
        i++;
      } else if (c === 0x7b || c === 0x5b) {
        this.depth = 1;
        i++;
      } else this.primitive = true;
    }
    while (i < n) {
      if (this.inString) {
        if (this.escape) {
          this.escape = false;
          i++;
          continue;
        }
        // jump to the next quote or backslash
        const q = t.indexOf('"', i);
        if (bs < i) {
          bs = t.indexOf('\\', i);
          if (bs === -1) bs = n;
        }
        if (bs < (q === -1 ? n : q)) {
          i = bs + 1;
          this.escape = true;
          continue;
        }
        if (q === -1) {
          i = n;
          break;
        }
        i = q + 1;
        this.inString = false;
        if (this.depth === 0) return this.complete(t, start, i);
        continue;
      }
      const c = t.charCodeAt(i);
      if (this.primitive) {
        if (c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
          return this.complete(t, start, i);
        }
        i++;
        continue;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        if (this.depth === 0) return this.complete(t, start, i + 1);
      }
      i++;
    }
    this.parts.push(t.slice(start, n));
    this.partsLen += n - start;
    if (this.partsLen > this.maxValueChars) {
      throw new Error(`GeoJSON value larger than ${this.maxValueChars} characters`);
    }
    return n;
  }

  private complete(t: string, start: number, end: number): number {
    this.parts.push(t.slice(start, end));
    this.finishCapture();
    return end;
  }

  private finishCapture(): void {
    const text = this.parts.length === 1 ? this.parts[0] : this.parts.join('');
    this.parts = [];
    this.state = this.afterCapture;
    if (this.captureKind === 'key') this.key = JSON.parse(text) as string;
    else if (this.captureKind === 'member') this.emit('member', text, this.key);
    else this.emit('feature', text);
  }
}

function toFeature(value: unknown, index: number): Feature {
  if (!value || typeof value !== 'object') throw new Error(`GeoJSON feature #${index} is not an object`);
  const v = value as { type?: unknown; geometry?: unknown; properties?: unknown };
  if (v.type === 'Feature') {
    if (v.geometry === undefined) (v as { geometry: null }).geometry = null;
    if (v.properties === undefined) (v as { properties: null }).properties = null;
    return v as Feature;
  }
  if (typeof v.type === 'string' && GEOMETRY_TYPES.has(v.type)) {
    return { type: 'Feature', geometry: v as Geometry, properties: {} };
  }
  throw new Error(`GeoJSON feature #${index} has type ${JSON.stringify(v.type)}, expected "Feature"`);
}

/** Searches the end of an uncompressed file for a top-level crs member. */
async function crsFromTail(path: string): Promise<string | null | undefined> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const len = Math.min(size, 64 * 1024);
    const buf = Buffer.alloc(len);
    await fh.read(buf, 0, len, size - len);
    const text = buf.toString('utf8');
    const m = /"crs"\s*:\s*(\{\s*"type"\s*:\s*"[^"]*"\s*,\s*"properties"\s*:\s*\{[^{}]*\}\s*\})/.exec(text);
    if (!m) return undefined;
    return crsFromGeoJsonMember(JSON.parse(m[1]));
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

export async function* readGeoJson(path: string, opts: { encoding?: string } = {}): AsyncGenerator<FeatureRow> {
  let crs: string | null | undefined; // undefined: not known yet
  let index = 0;
  let pending: unknown[] = [];
  let topMembers: Record<string, unknown> | null = null;
  const objects: Record<string, unknown>[] = []; // top-level objects that were not collections

  const scanner = new GeoJsonScanner((kind, text, key, value) => {
    if (kind === 'feature') pending.push(value ?? text);
    else if (kind === 'featuresStart') (topMembers ??= {}).features = true;
    else if (kind === 'objectEnd') {
      // a top-level object that is not a collection: a Feature or a bare geometry
      if (topMembers && !('features' in topMembers)) objects.push(topMembers);
      topMembers = null;
    } else {
      const value = JSON.parse(text) as unknown;
      (topMembers ??= {})[key!] = value;
      if (key === 'crs') crs = crsFromGeoJsonMember(value);
    }
  });

  let tailChecked = false;
  const bytes = { read: 0, total: (await stat(path)).size };
  for await (const chunk of readTextChunks(path, opts.encoding, (n) => { bytes.read += n; })) {
    scanner.push(chunk);
    if (pending.length > 0 && crs === undefined && !tailChecked) {
      tailChecked = true;
      if (!path.toLowerCase().endsWith('.gz')) crs = await crsFromTail(path);
    }
    for (const item of pending) {
      index++;
      yield { index, feature: toFeature(typeof item === 'string' ? JSON.parse(item) : item, index), crs: crs ?? null, bytes: { ...bytes } };
    }
    pending = [];
    for (const obj of objects.splice(0)) {
      index++;
      yield { index, feature: toFeature(obj, index), crs: crs ?? null, bytes: { ...bytes } };
    }
  }
  scanner.end();
  for (const obj of objects.splice(0)) {
    index++;
    yield { index, feature: toFeature(obj, index), crs: crs ?? null };
  }
}
