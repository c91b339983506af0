import { cellToBoundary, cellToChildren, cellToLatLng, cellToParent, getHexagonEdgeLengthAvg, getResolution, gridDisk, isPentagon, latLngToCell, polygonToCells, UNITS } from 'h3-js';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { ZONE_COVER_RES } from '../../schemas/tables/zones.ts';
import { pointInPolygonIndex } from './point-in-polygon.ts';

export interface ZoneCover {
  /** Cells wholly inside the zone, as coarse as possible (mixed resolutions up to `res`). */
  interior: string[];
  /** Cells at `res` that touch the zone's border: a point there needs an exact polygon test. */
  border: string[];
}

/**
 * Covers a WGS84 polygon with H3 cells (DESIGN.md, Spatial indexing). Border cells are found by
 * walking every ring at half an edge length and taking each sample's cell with its neighbours,
 * which over-covers the border on purpose: a cell not in `border` never crosses a ring, so if its
 * centre is inside, all of it is.
 */
export function coverZone(geometry: Polygon | MultiPolygon, res = ZONE_COVER_RES, { smallShortcut = true } = {}): ZoneCover {
  const polygons: Position[][][] = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  // A shape narrower than any cell at `res` holds no cell wholly: its cover is its outline's cells
  // (a parcel or a building footprint; the walk from coarse cells below cost most of their cover),
  // or the one cell it lies in with room to spare (most parcels: 0.35 of the rows).
  if (smallShortcut && narrowerThanCells(geometry, res)) {
    const one = soleCell(geometry, res);
    return { interior: [], border: one ? [one] : [...outlineCells(geometry, res)] };
  }
  const border = outlineCells(geometry, res);
  // Interior, coarse to fine: a cell none of whose descendants touches the border lies wholly on
  // one side of it (its descendants form one connected patch), the side of its centre. Only cells
  // holding border descendants are split, so a region of a million km² costs no more than its outline.
  const start = Math.min(COARSE_RES, res);
  const touching: Set<string>[] = Array.from({ length: res + 1 }, () => new Set<string>());
  for (const c of border) for (let r = start; r < res; r++) touching[r]!.add(cellToParent(c, r));
  const interior: string[] = [];
  const contains = pointInPolygonIndex(geometry);
  const inside = (cell: string) => {
    const [lat, lng] = cellToLatLng(cell);
    return contains(lng, lat);
  };
  let level = new Set<string>(touching[start]);
  for (const rings of polygons) for (const c of polygonToCells(rings as number[][][], start, true)) level.add(c);
  for (let r = start; r <= res && level.size > 0; r++) {
    const next = new Set<string>();
    for (const c of level) {
      if (r === res ? border.has(c) : touching[r]!.has(c)) {
        if (r < res) for (const child of cellToChildren(c, r + 1)) next.add(child);
      } else if (inside(c)) {
        interior.push(c);
      }
    }
    level = next;
  }
  return { interior, border: [...border] };
}

/**
 * True when the shape's bounding box is narrower, in one direction, than the inscribed circle of
 * the smallest cell at `res` could be: half the average edge is below every hexagon's edge (H3
 * edges vary less than a factor 1.5 around the average; pentagons, at sea, are not smaller than
 * half), and a cell wholly inside the shape needs twice its inradius (edge × √3 / 2) both ways.
 */
export function narrowerThanCells(geometry: Polygon | MultiPolygon, res: number): boolean {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const rings = geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat();
  for (const ring of rings) for (const [x, y] of ring) {
    if (x! < minX) minX = x!; if (x! > maxX) maxX = x!; if (y! < minY) minY = y!; if (y! > maxY) maxY = y!;
  }
  const diameter = 2 * (getHexagonEdgeLengthAvg(res, UNITS.m) / 2) * (Math.sqrt(3) / 2);
  // Widths in metres measured at the bounding box's parallel nearest the equator: never under the true width.
  const coslat = Math.cos((Math.min(Math.abs(minY), Math.abs(maxY)) * Math.PI) / 180);
  const width = (maxX - minX) * 111_320 * (minY <= 0 && maxY >= 0 ? 1 : coslat);
  const height = (maxY - minY) * 110_574;
  return width < diameter || height < diameter;
}

/** How far inside its cell's edges every vertex of a shape must lie for the cell alone to cover it (metres). */
export const SOLE_CELL_MARGIN_M = 1;

/**
 * The cell at `res` holding the whole shape with SOLE_CELL_MARGIN_M to spare, or null. A hexagon
 * is convex and the shape lies in its vertices' convex hull, so every vertex at least the margin
 * inside each edge's line puts every point of the shape in the cell: the margin covers the
 * straight lon/lat lines standing for h3's great-circle edges and the local projection in metres
 * (both under a millimetre at this size). Pentagons and cells whose boundary h3 draws with more
 * than six vertices (across an icosahedron face) are left to the outline walk.
 */
export function soleCell(geometry: Polygon | MultiPolygon, res = ZONE_COVER_RES): string | null {
  const rings = geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat();
  const first = rings[0]?.[0];
  if (!first) return null;
  const memo = memoAt(res);
  const cell = memo.cellOf(first[0]!, first[1]!);
  const h = memo.hexagon(cell);
  if (!h) return null;
  for (const ring of rings) {
    for (const [lng, lat] of ring) {
      const x = (lng! - h.lng) * h.kx, y = (lat! - h.lat) * h.ky;
      for (let i = 0; i < 24; i += 4) if ((x - h.edges[i]!) * h.edges[i + 2]! + (y - h.edges[i + 1]!) * h.edges[i + 3]! < SOLE_CELL_MARGIN_M) return null;
    }
  }
  return cell;
}

/** A hexagon's six edges in metres around its centre: a point and the inward unit normal of each. */
interface Hexagon { lng: number; lat: number; kx: number; ky: number; edges: Float64Array }

function hexagonOf(cell: string): Hexagon | null {
  if (isPentagon(cell)) return null;
  const boundary = cellToBoundary(cell);
  if (boundary.length !== 6) return null;
  const [lat, lng] = cellToLatLng(cell);
  const kx = Math.cos((lat * Math.PI) / 180) * 111_320, ky = 110_574;
  const xy = boundary.map(([la, ln]) => [(ln! - lng) * kx, (la! - lat) * ky] as const);
  const edges = new Float64Array(24);
  for (let i = 0; i < 6; i++) {
    const [px, py] = xy[i]!, [qx, qy] = xy[(i + 1) % 6]!;
    const len = Math.hypot(qx - px, qy - py);
    let nx = -(qy - py) / len, ny = (qx - px) / len;
    // Inward: toward the centre (the origin).
    if (-px * nx - py * ny < 0) { nx = -nx; ny = -ny; }
    edges.set([px, py, nx, ny], 4 * i);
  }
  return { lng, lat, kx, ky, edges };
}

/**
 * Cells at `res` that may cross the outline: each ring walked at half an edge length, each
 * sample's cell with its neighbours. A cell outside this set lies wholly on one side of every ring.
 */
export function outlineCells(geometry: Polygon | MultiPolygon, res = ZONE_COVER_RES): Set<string> {
  const polygons: Position[][][] = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const step = getHexagonEdgeLengthAvg(res, UNITS.m) / 2;
  const memo = memoAt(res);
  const cells = new Set<string>();
  for (const rings of polygons) {
    for (const ring of rings) {
      // Consecutive samples often fall in the same cell: its neighbours are added once.
      let previous = '';
      for (const sample of walkRing(ring, step)) {
        const cell = memo.cellOf(sample[0]!, sample[1]!);
        if (cell === previous) continue;
        previous = cell;
        for (const c of memo.disk(cell)) cells.add(c);
      }
    }
  }
  return cells;
}

/**
 * The disks of cells met lately, at one resolution: neighbouring parcels share their cells, so a
 * cadastre run asks h3 for the same disks many times. The same answers as h3's; emptied when large.
 * (Remembering the cells of shared vertices as well cost as much in Map lookups as it saved.)
 */
class CellMemo {
  private disks = new Map<string, string[]>();
  private hexagons = new Map<string, Hexagon | null>();
  constructor(private readonly res: number) {}

  cellOf(lng: number, lat: number): string { return latLngToCell(lat, lng, this.res); }

  hexagon(cell: string): Hexagon | null {
    let h = this.hexagons.get(cell);
    if (h === undefined) {
      if (this.hexagons.size >= MEMO_ENTRIES) this.hexagons.clear();
      this.hexagons.set(cell, (h = hexagonOf(cell)));
    }
    return h;
  }

  disk(cell: string): string[] {
    let disk = this.disks.get(cell);
    if (!disk) {
      if (this.disks.size >= MEMO_ENTRIES) this.disks.clear();
      this.disks.set(cell, (disk = gridDisk(cell, 1)));
    }
    return disk;
  }
}

const MEMO_ENTRIES = 100_000;
const memos: CellMemo[] = [];
const memoAt = (res: number) => (memos[res] ??= new CellMemo(res));

export interface CoveredPart { geometry: Polygon | MultiPolygon; cover: ZoneCover }

/**
 * The cover of a zone whose outline `geometry` is the union of `children` (disjoint zones with
 * their recorded covers at the same `res`), without covering the union's area again. Every
 * child's interior cell is interior to the union. A child's border cell off the union's outline
 * (a border shared by two children) crosses no ring of the union, so it lies wholly inside or
 * wholly outside: inside when its centre is in one of the children it borders (a cell whose
 * centre is in another child lies wholly in that child, hence under its interior). The union's
 * own border cells are its outline's cells that some child covers; they keep the exact test.
 * Only the union's outline is walked, and centres are tested against the children's (smaller) outlines.
 */
export function coverUnion(geometry: Polygon | MultiPolygon, children: CoveredPart[], res = ZONE_COVER_RES): ZoneCover {
  if (children.length === 1) return children[0]!.cover;
  const outline = outlineCells(geometry, res);
  const interior = new NestedCells();
  for (const child of children) for (const c of child.cover.interior) interior.add(c);
  const shared = new Map<string, number[]>();
  const border = new Set<string>();
  children.forEach((child, i) => {
    for (const c of child.cover.border) {
      if (outline.has(c)) { border.add(c); continue; }
      const owners = shared.get(c);
      if (owners) owners.push(i); else shared.set(c, [i]);
    }
  });
  const contains: ((lng: number, lat: number) => boolean)[] = [];
  for (const [c, owners] of shared) {
    if (interior.holds(c)) continue;
    const [lat, lng] = cellToLatLng(c);
    if (owners.some((i) => (contains[i] ??= pointInPolygonIndex(children[i]!.geometry))(lng, lat))) interior.add(c);
  }
  const compacted = compactCover(interior.cells, res);
  const kept = new NestedCells(compacted);
  return { interior: compacted, border: [...border].filter((c) => !kept.holds(c)) };
}

/** Cells of mixed resolutions; ancestors are looked up only at the resolutions held. */
class NestedCells {
  readonly cells = new Set<string>();
  private resolutions = 0;
  constructor(cells: Iterable<string> = []) { for (const c of cells) this.add(c); }
  add(cell: string): void { this.cells.add(cell); this.resolutions |= 1 << getResolution(cell); }
  /** Whether one of `cell`'s ancestors (or, unless `strict`, the cell itself) is held. */
  holds(cell: string, strict = false): boolean {
    const res = getResolution(cell);
    if (!strict && this.cells.has(cell)) return true;
    for (let r = res - 1; r >= 0; r--) if (this.resolutions & (1 << r) && this.cells.has(cellToParent(cell, r))) return true;
    return false;
  }
}

/**
 * Cells of mixed resolutions (up to `res`) with no one under another, merged into their parent
 * wherever all of its children are present. Children are counted by index, as the lookup reads
 * the cover (a point's cell at `res` and its ancestors), not by outline. (h3's compactCells expects
 * one resolution: given seven children of which one is itself split, it stops at the seven.)
 */
export function compactCover(cells: Iterable<string>, res = ZONE_COVER_RES): string[] {
  const byRes: Set<string>[] = Array.from({ length: res + 1 }, () => new Set<string>());
  const all = new NestedCells(cells);
  for (const c of all.cells) if (!all.holds(c, true)) byRes[getResolution(c)]!.add(c);
  for (let r = res; r > 0; r--) {
    const counts = new Map<string, number>();
    for (const c of byRes[r]!) { const p = cellToParent(c, r - 1); counts.set(p, (counts.get(p) ?? 0) + 1); }
    for (const [p, n] of counts) {
      if (n !== (isPentagon(p) ? 6 : 7)) continue;
      for (const c of cellToChildren(p, r)) byRes[r]!.delete(c);
      byRes[r - 1]!.add(p);
    }
  }
  return byRes.flatMap((s) => [...s]);
}

/** Resolution the interior cover starts from (about 250 km² a cell). */
const COARSE_RES = 5;

/** Points along a ring ([lng, lat]) no further apart than `stepM` meters. */
function* walkRing(ring: Position[], stepM: number): Generator<Position> {
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    yield a;
    const d = approxDistanceM(a, b);
    const n = Math.ceil(d / stepM);
    for (let k = 1; k < n; k++) {
      const t = k / n;
      yield [a[0]! + (b[0]! - a[0]!) * t, a[1]! + (b[1]! - a[1]!) * t];
    }
  }
}

/** Equirectangular distance: exact enough to space samples along short segments. */
function approxDistanceM(a: Position, b: Position): number {
  const rad = Math.PI / 180;
  const x = (b[0]! - a[0]!) * rad * Math.cos(((a[1]! + b[1]!) / 2) * rad);
  const y = (b[1]! - a[1]!) * rad;
  return Math.sqrt(x * x + y * y) * 6_371_008.8;
}
