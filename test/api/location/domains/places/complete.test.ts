import { describe, expect, it } from 'vitest';
import { incompleteAt } from '../../../../../api/location/domains/places/resolve.ts';
import { sourceById } from '../../../../../datasets/catalogue.ts';

// The schools of Belgium as the catalogue declares them: each Community's register complete in its
// own region, Brussels complete with both (places_complete_in.together).
const completeIn = (id: string) => sourceById(id)?.places_complete_in;
const FLANDERS = '02000', WALLONIA = '03000', BRUSSELS = '04000';
const at = (sources: string[], region: string | null) => incompleteAt(new Map([['school', new Set(sources)], ['transport', new Set(['be.gtfs.1'])]]), region, completeIn);

describe('places_complete_in: where a group is all published', () => {
  it('both Communities\' registers: complete in the three regions; an unknown region says only that', () => {
    for (const r of [FLANDERS, WALLONIA, BRUSSELS]) expect(at(['be.schools-fwb', 'be.schools-vl'], r), r).toEqual(new Map());
    expect(at(['be.schools-fwb', 'be.schools-vl'], null)).toEqual(new Map([['school', "the point's region is not known"]]));
  });
  it('one register alone: complete in its own region only, elsewhere the other Community\'s schools named as missing', () => {
    expect(at(['be.schools-fwb'], WALLONIA)).toEqual(new Map());
    expect(at(['be.schools-fwb'], BRUSSELS).get('school')).toMatch(/Flemish Community's schools/);
    expect(at(['be.schools-fwb'], FLANDERS).get('school')).toMatch(/Flemish Community's schools/);
    expect(at(['be.schools-vl'], FLANDERS)).toEqual(new Map());
    expect(at(['be.schools-vl'], BRUSSELS).get('school')).toMatch(/Fédération Wallonie-Bruxelles's schools/);
    expect(at(['be.schools-vl'], WALLONIA).get('school')).toMatch(/Fédération Wallonie-Bruxelles's schools/);
  });
  it('a source of the whole country makes the group complete everywhere', () => {
    expect(at(['be.schools-fwb', 'be.osm'], FLANDERS)).toEqual(new Map());
  });
});
