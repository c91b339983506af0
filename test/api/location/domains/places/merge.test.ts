import { describe, expect, it } from 'vitest';
import { LARGE_SITE_MERGE_DISTANCE_M, MERGE_DISTANCE_M, mergeDuplicates, sameName } from '../../../../../api/location/domains/places/merge.ts';
import type { PointHit } from '../../../../../api/location/kinds/points.ts';

// The merge rule of docs/places.md: same category, within 50 m of each other, names whose words one contains.
const M_PER_DEG_LAT = 111_195;
const hit = (id: string, name: string, category: string, northM: number, distance: number, lines: string[] | null = null): PointHit => ({
  id, name, category, latitude: 50.85 + northM / M_PER_DEG_LAT, longitude: 4.35, distance_m: distance, source: id.split(':')[0]!,
  attributes: lines ? { lines: lines.map((l) => ({ short_name: l })) } : null,
});

describe('a place published several times is served once', () => {
  it('matches names by their words, accents and punctuation aside', () => {
    expect(sameName('De Brouckère', 'Brussel De Brouckere')).toBe(true);
    expect(sameName('BOURSE', 'Bourse')).toBe(true);
    expect(sameName('Saint-Denis / Mont-Royal', 'Mont Royal - Saint Denis')).toBe(true);
    expect(sameName('Gare Centrale', 'Bruxelles-Central')).toBe(false);
    expect(sameName('', 'Bourse')).toBe(false);
  });

  it('keeps the nearest of the twins with the lines of both, and only twins', () => {
    const hits = [
      hit('stib:5200', 'DE BROUCKERE', 'transport.bus', 0, 100, ['86']),
      hit('dl:300852', 'Brussel De Brouckère', 'transport.bus', MERGE_DISTANCE_M - 1, 110, ['355', '86']),
      // Same name and place, another category: a metro station above the bus stop stays.
      hit('stib:8042', 'DE BROUCKERE', 'transport.metro', 5, 120, ['1']),
      // Same name and category, too far: two places.
      hit('dl:999', 'De Brouckère', 'transport.bus', MERGE_DISTANCE_M + 5, 130, ['1']),
    ];
    const merged = mergeDuplicates(hits);
    expect(merged.map((h) => h.id)).toEqual(['stib:5200', 'stib:8042', 'dl:999']);
    expect((merged[0]!.attributes!.lines as { short_name: string }[]).map((l) => l.short_name)).toEqual(['86', '355']);
    // The input is left as it was.
    expect((hits[0]!.attributes!.lines as unknown[]).length).toBe(1);
  });

  it('lets train stations and airports be further apart: producers place them at different points of the site', () => {
    const station = (id: string, name: string, north: number, d: number) => hit(id, name, 'transport.train_station', north, d, []);
    expect(mergeDuplicates([station('gtfs:1', 'Gare de Lyon', 0, 10), station('sncf:PLY', 'Paris Gare de Lyon', LARGE_SITE_MERGE_DISTANCE_M - 5, 20)]).map((h) => h.id)).toEqual(['gtfs:1']);
    expect(mergeDuplicates([station('gtfs:1', 'Gare de Lyon', 0, 10), station('sncf:PLY', 'Paris Gare de Lyon', LARGE_SITE_MERGE_DISTANCE_M + 5, 20)])).toHaveLength(2);
    // Bus stops keep the short distance.
    expect(mergeDuplicates([hit('a:1', 'Bastille', 'transport.bus', 0, 10, ['1']), hit('b:1', 'Bastille', 'transport.bus', MERGE_DISTANCE_M + 5, 20, ['2'])])).toHaveLength(2);
  });
});
