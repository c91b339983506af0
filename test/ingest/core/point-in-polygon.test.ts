import { booleanPointInPolygon, randomPoint } from '@turf/turf';
import type { MultiPolygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { pointInPolygonIndex } from '../../../ingest/core/point-in-polygon.ts';

// A concave polygon with a hole, and an island holding a lake with an islet (a separate polygon).
const geometry: MultiPolygon = {
  type: 'MultiPolygon',
  coordinates: [
    [
      [[0, 0], [10, 0], [10, 10], [5, 4], [0, 10], [0, 0]],
      [[2, 1], [4, 1], [4, 3], [2, 3], [2, 1]],
    ],
    [
      [[12, 0], [20, 0], [20, 8], [12, 8], [12, 0]],
      [[14, 2], [18, 2], [18, 6], [14, 6], [14, 2]],
    ],
    [[[15, 3], [17, 3], [17, 5], [15, 5], [15, 3]]],
  ],
};

describe('pointInPolygonIndex', () => {
  it('answers as turf booleanPointInPolygon off the edges: concave parts, holes, separate polygons, outside the extent', () => {
    const contains = pointInPolygonIndex(geometry);
    const points = randomPoint(5000, { bbox: [-2, -2, 22, 12] }).features;
    let inside = 0;
    for (const p of points) {
      const [lng, lat] = p.geometry.coordinates as [number, number];
      const want = booleanPointInPolygon([lng, lat], geometry);
      expect(contains(lng, lat), `${lng}, ${lat}`).toBe(want);
      if (want) inside++;
    }
    expect(inside).toBeGreaterThan(1000);
    expect(contains(3, 2)).toBe(false); // the hole
    expect(contains(16, 4)).toBe(true); // the islet in the lake
    expect(contains(5, 6)).toBe(false); // the notch of the concave part
  });
});
