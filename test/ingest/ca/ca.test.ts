import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nameAndCode, readMun } from '../../../ingest/ca/mun.ts';
import { interpolate, RollRow } from '../../../ingest/ca/roll.ts';
import { odonym } from '../../../ingest/ca/adresses-quebec.ts';

describe('Quebec helpers', () => {
  it('reads MUN.csv: an MRC, or the equivalent territory of a city outside any MRC', async () => {
    expect(nameAndCode('MRC Brome-Missisquoi (460)')).toEqual({ name: 'MRC Brome-Missisquoi', code: '460' });
    expect(nameAndCode('')).toBeNull();
    const mun = await readMun(join(import.meta.dirname, '../../../datasets/ca/mun/MUN.csv'));
    expect(mun.get('46005')).toMatchObject({ name: 'Abercorn', region: { code: '05', name: 'Estrie' }, mrc: { code: '460', equivalent: false } });
    expect(mun.get('66023')).toMatchObject({ name: 'Montréal', region: { code: '06' }, mrc: { code: '66', name: 'Montréal', equivalent: true } });
  });

  it('writes the odonym from its parts', () => {
    expect(odonym({ Generique: 'avenue', Liaison: 'du', Specifique: 'Mont-Royal', Direction: 'Est' })).toBe('avenue du Mont-Royal Est');
    expect(odonym({ Generique: 'rue', Liaison: "de l'", Specifique: 'Église', Direction: '' })).toBe("rue de l'Église");
  });

  it('places a roll number between the official numbers on its side of the street, never beyond them', () => {
    const known = [{ number: 4117, lng: -73.579, lat: 45.52 }, { number: 4129, lng: -73.58, lat: 45.521 }, { number: 4120, lng: 0, lat: 0 }];
    expect(interpolate(known, 4121)).toEqual({ lng: -73.5793333, lat: 45.5203333 });
    expect(interpolate(known, 4131)).toBeNull();
    expect(interpolate(known, 4118)).toBeNull();
  });

  it('reads the roll street without its municipality codes and refuses numberless lots', () => {
    expect(RollRow.parse({ ID_UEV: '1', CIVIQUE_DEBUT: ' 5829', NOM_RUE: 'rue Eadie  (MTL)', MUNICIPALITE: '50' }).NOM_RUE).toBe('rue Eadie');
    const lot = RollRow.safeParse({ ID_UEV: '1', CIVIQUE_DEBUT: '99999', NOM_RUE: 'parc  (MTL)', MUNICIPALITE: '50' });
    expect(lot.success ? null : lot.error.issues[0]!.message).toBe('civic number 99999: a lot without an address');
  });
});
