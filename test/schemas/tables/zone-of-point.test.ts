import { describe, expect, it } from 'vitest';
import { candidatesByLevel, zonesOfPoint, zonesOfPointAsync } from '../../../schemas/tables/zone-of-point.ts';

// Cover rows of one point's cell and ancestors, as zone_cells gives them (finest cell first).
const hits = [
  { level: 'locality', code: '33003', interior: false },
  { level: 'locality', code: '33001', interior: false },
  { level: 'sublocality_level2', code: '330010102', interior: true },
  { level: 'administrative_area_level2', code: '33', interior: true },
  { level: 'administrative_area_level2', code: '24', interior: true },
];

describe('the zone of a point', () => {
  it('takes an interior cell at once and tries border candidates in code order', () => {
    const tried: string[] = [];
    const found = zonesOfPoint(hits, (z) => { tried.push(z.code); return true; });
    expect(found.map((z) => z.code)).toEqual(['33001', '330010102', '33']);
    // Only border candidates are tested, the smallest code first: a point on a shared edge gets the same zone everywhere.
    expect(tried).toEqual(['33001']);
  });

  it('keeps the finest interior row of a level and finds no zone where no outline contains the point', () => {
    expect(candidatesByLevel(hits).find((c) => c.level === 'administrative_area_level2')!.interior!.code).toBe('33');
    expect(zonesOfPoint(hits, () => false).map((z) => z.code)).toEqual(['330010102', '33']);
  });

  it('gives the same answer when outlines are read on demand', async () => {
    const contains = (z: { code: string }) => z.code === '33003';
    const sync = zonesOfPoint(hits, contains);
    expect(await zonesOfPointAsync(hits, async (z) => contains(z))).toEqual(sync);
    expect(sync.map((z) => z.code)).toEqual(['33003', '330010102', '33']);
  });
});
