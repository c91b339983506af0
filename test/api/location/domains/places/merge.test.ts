import { describe, expect, it } from 'vitest';
import { LARGE_SITE_MERGE_DISTANCE_M, MERGE_DISTANCE_M, mergeDuplicates, mergeTwins, sameName, samePlace, servedHit } from '../../../../../api/location/domains/places/merge.ts';
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

  it('merges without reading attributes; the places served get their twins\' lines', () => {
    const reads: string[] = [];
    const lite = [hit('stib:5200', 'DE BROUCKERE', 'transport.bus', 0, 100, ['86']), hit('dl:300852', 'Brussel De Brouckère', 'transport.bus', 10, 110, ['355', '86']), hit('stib:8042', 'DE BROUCKERE', 'transport.metro', 5, 120, ['1'])]
      .map(({ attributes, ...h }) => ({ ...h, loadAttributes: () => { reads.push(h.id); return attributes; } }));
    const kept = mergeTwins(lite);
    expect(kept.map((k) => [k.id, k.twins.map((t) => t.id)])).toEqual([['stib:5200', ['dl:300852']], ['stib:8042', []]]);
    expect(reads).toEqual([]);
    const served = servedHit(kept[0]!);
    expect((served.attributes!.lines as { short_name: string }[]).map((l) => l.short_name)).toEqual(['86', '355']);
    expect(reads).toEqual(['stib:5200', 'dl:300852']);
    expect(Object.keys(served).sort()).toEqual(['attributes', 'category', 'distance_m', 'id', 'latitude', 'longitude', 'name', 'source']);
  });

  it('lets train stations and airports be further apart: producers place them at different points of the site', () => {
    const station = (id: string, name: string, north: number, d: number) => hit(id, name, 'transport.train_station', north, d, []);
    expect(mergeDuplicates([station('gtfs:1', 'Gare de Lyon', 0, 10), station('sncf:PLY', 'Paris Gare de Lyon', LARGE_SITE_MERGE_DISTANCE_M - 5, 20)]).map((h) => h.id)).toEqual(['gtfs:1']);
    expect(mergeDuplicates([station('gtfs:1', 'Gare de Lyon', 0, 10), station('sncf:PLY', 'Paris Gare de Lyon', LARGE_SITE_MERGE_DISTANCE_M + 5, 20)])).toHaveLength(2);
    // Bus stops keep the short distance.
    expect(mergeDuplicates([hit('a:1', 'Bastille', 'transport.bus', 0, 10, ['1']), hit('b:1', 'Bastille', 'transport.bus', MERGE_DISTANCE_M + 5, 20, ['2'])])).toHaveLength(2);
  });

  it('merges a nameless point into a named one of another source, never two nameless points of one source', () => {
    const school = (id: string, name: string | null, north: number, d: number) => ({ ...hit(id, name ?? '', 'school.primary', north, d), name });
    const merged = mergeDuplicates([school('fr.bpe:1', null, 0, 10), school('fr.schools:0750001A', 'École élémentaire Vertbois', 20, 15), school('fr.bpe:2', null, 25, 16)]);
    // The BPE row takes the directory's name; a second BPE school 25 m away is another school of the same producer.
    expect(merged.map((h) => [h.id, h.name])).toEqual([['fr.bpe:1', 'École élémentaire Vertbois'], ['fr.bpe:2', null]]);
    const pharmacies = mergeDuplicates([school('fr.bpe:p1', null, 0, 10), school('fr.bpe:p2', null, 10, 12)]);
    expect(pharmacies).toHaveLength(2);
  });

  it('finds the same twins as a scan of every kept place, wherever the grid cuts', () => {
    // Points around a bucket edge, at random, against the pairwise definition.
    let seed = 7;
    const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 30; round++) {
      const hits = Array.from({ length: 60 }, (_, k) => ({
        ...hit(`s${k % 3}:${k}`, ['Bourse', 'bourse', 'Gare', ''][Math.floor(rand() * 4)]!, rand() < 0.5 ? 'transport.bus' : 'transport.train_station', 0, k),
        // Brussels, La Réunion, the north of Quebec: the grid's longitude step follows the latitude.
        latitude: [50.8499, -21.1, 61.5][round % 3]! + rand() * 0.004, longitude: 4.3495 + rand() * 0.012,
      })).map((h) => ({ ...h, name: h.name === '' ? null : h.name }));
      const naive: PointHit[] = [];
      for (const h of hits) {
        const twin = naive.find((k) => samePlace(k, h));
        if (!twin) naive.push({ ...h }); else if (twin.name === null) twin.name = h.name;
      }
      expect(mergeDuplicates(hits).map((h) => h.id)).toEqual(naive.map((h) => h.id));
    }
  });
});
