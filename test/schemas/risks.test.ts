import { describe, expect, expectTypeOf, it } from 'vitest';
import { HAZARD_CATALOG, byLevelDesc, hazardOf, isNotable } from '../../api/location/domains/risks/hazards.ts';
import { HAZARD_LEVELS, HazardLevel, HazardType } from '../../schemas/hazard.ts';
import { FrRisks } from '../../schemas/risks.ts';

describe('the risks contract of France (spec 2.10)', () => {
  const risks = {
    status: 'partial', hazards: [{ type: 'radon', level: 'high', scope: 'locality', label: 'Radon: high' }], not_assessed: ['flood'],
    summary: { highest_level: 'high', notable: ['radon'], assessed: ['radon'], not_assessed: ['flood'] },
    obligations: null, polluted_sites: null, missing: { obligations: 'unavailable', polluted_sites: 'unavailable' },
    locality: {
      zone: { level: 'locality', code: '33001', name: 'Abzac' },
      known_risks: [{ code: '11', label: 'Inondation', type: 'flood' }, { code: '215', label: 'Risque industriel', type: null }],
      updated_on: '2026-10-01',
    },
  };

  it('types and validates the same shape', () => {
    expectTypeOf<FrRisks['summary']['highest_level']>().toEqualTypeOf<HazardLevel | null>();
    expectTypeOf<FrRisks['not_assessed'][number]>().toEqualTypeOf<HazardType>();
    expect(FrRisks.parse(risks)).toEqual(risks);
    // Every documented field is present (spec 2.2): a missing one is refused, as is an unknown type or level.
    const { obligations: _o, ...withoutObligations } = risks;
    expect(FrRisks.safeParse(withoutObligations).success).toBe(false);
    expect(FrRisks.safeParse({ ...risks, not_assessed: ['tsunami'] }).success).toBe(false);
    expect(FrRisks.safeParse({ ...risks, hazards: [{ ...risks.hazards[0], level: 'medium' }] }).success).toBe(false);
    // The commune's known risks carry a spec 2.5 type or null, never another word.
    expect(FrRisks.safeParse({ ...risks, locality: { ...risks.locality, known_risks: [{ code: '11', label: 'Inondation', type: 'inondation' }] } }).success).toBe(false);
    expect(FrRisks.parse({ ...risks, locality: null }).locality).toBeNull();
  });
});

describe('the hazard catalogue', () => {
  it('names every type once, each level of a type once, with a definition in both languages', () => {
    expect(HAZARD_CATALOG.map((h) => h.type)).toEqual(HazardType.options);
    for (const h of HAZARD_CATALOG) {
      expect(new Set(h.levels.map((l) => l.level)).size, h.type).toBe(h.levels.length);
      for (const l of h.levels) expect(l.definition.fr.length > 0 && l.definition.en.length > 0, `${h.type} ${l.level}`).toBe(true);
    }
    expect(Object.keys(HAZARD_LEVELS)).toEqual(HazardLevel.options);
  });

  it('orders hazards highest first, equal levels by type, and counts moderate and above as notable', () => {
    const hs = [hazardOf('seismic', 'low', 'locality', 'en'), hazardOf('radon', 'low', 'locality', 'en'), hazardOf('clay_shrink_swell', 'very_high', 'point', 'en'), hazardOf('flood', 'present', 'point', 'en')];
    expect(hs.sort(byLevelDesc).map((h) => `${h.type}:${h.level}`)).toEqual(['clay_shrink_swell:very_high', 'flood:present', 'radon:low', 'seismic:low']);
    expect(HazardLevel.options.filter(isNotable)).toEqual(['moderate', 'high', 'very_high', 'present']);
    expect(hazardOf('radon', 'high', 'locality', 'fr').label).toBe('Radon : élevé');
  });
});
