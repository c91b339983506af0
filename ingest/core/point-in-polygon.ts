import type { MultiPolygon, Polygon, Position } from 'geojson';

/**
 * A point-in-polygon test ([lng, lat]) for many points against one large outline: the edges are
 * bucketed into latitude bands once, so each test counts ray crossings only on the edges of its
 * band instead of on every vertex of the outline. Even-odd rule per polygon (holes cancel), a
 * point inside when it is inside any polygon. Points exactly on an edge may go either way: the
 * covers test cell centres that lie off every ring.
 */
export function pointInPolygonIndex(geometry: Polygon | MultiPolygon): (lng: number, lat: number) => boolean {
  const polygons: Position[][][] = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  let minLat = Infinity, maxLat = -Infinity, edges = 0;
  for (const rings of polygons) for (const ring of rings) for (const p of ring) {
    if (p[1]! < minLat) minLat = p[1]!;
    if (p[1]! > maxLat) maxLat = p[1]!;
    edges++;
  }
  if (edges === 0) return () => false;
  const bandCount = Math.max(1, Math.min(65_536, Math.ceil(edges / 4)));
  const height = (maxLat - minLat) / bandCount || 1;
  const bandOf = (lat: number) => Math.min(bandCount - 1, Math.max(0, Math.floor((lat - minLat) / height)));
  // Each band: its edges as x1, y1, x2, y2, polygon index.
  const bands: number[][] = Array.from({ length: bandCount }, () => []);
  polygons.forEach((rings, poly) => {
    for (const ring of rings) {
      for (let i = 0; i < ring.length; i++) {
        const a = ring[i]!, b = ring[(i + 1) % ring.length]!;
        if (a[1] === b[1]) continue; // a horizontal edge is never crossed by a horizontal ray
        const lo = bandOf(Math.min(a[1]!, b[1]!)), hi = bandOf(Math.max(a[1]!, b[1]!));
        for (let k = lo; k <= hi; k++) bands[k]!.push(a[0]!, a[1]!, b[0]!, b[1]!, poly);
      }
    }
  });
  const parity = new Uint8Array(polygons.length);
  return (lng, lat) => {
    if (!(lat >= minLat && lat <= maxLat)) return false;
    const band = bands[bandOf(lat)]!;
    parity.fill(0);
    for (let i = 0; i < band.length; i += 5) {
      const x1 = band[i]!, y1 = band[i + 1]!, x2 = band[i + 2]!, y2 = band[i + 3]!;
      if ((y1 > lat) !== (y2 > lat) && lng < x1 + ((lat - y1) * (x2 - x1)) / (y2 - y1)) parity[band[i + 4]!]! ^= 1;
    }
    return parity.includes(1);
  };
}
