import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { belgianName, communeChain, regimeLangs, sectorChain } from '../../../ingest/be/zones.ts';
import { provinceOfCode, readRefnis, refnisLevel, regionOfCode } from '../../../ingest/be/refnis.ts';
import { BEST_COLUMNS, ingestBestFile, splitHouseNumber } from '../../../ingest/be/best.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

const SAMPLES = join(import.meta.dirname, '../../../datasets/be');

describe('Belgian names and codes', () => {
  it('names a place in its official languages', () => {
    expect(belgianName({ fr: 'Bruxelles', nl: 'Brussel', de: 'Brüssel' }, regimeLangs('FN')!)).toBe('Bruxelles / Brussel');
    expect(belgianName({ fr: 'Etterbeek', nl: 'Etterbeek' }, ['fr', 'nl'])).toBe('Etterbeek');
    expect(belgianName({ fr: 'Hal', nl: 'Halle' }, regimeLangs('N')!)).toBe('Halle');
    expect(belgianName({ fr: null, nl: 'Machelen' }, ['fr'])).toBe('Machelen');
    expect(belgianName({}, ['fr'])).toBeNull();
  });

  it('tells REFNIS levels, regions and provinces apart by code (Brabant split, no province in Brussels)', () => {
    expect(['01000', '04000', '20001', '20002', '21000', '21004', '25105'].map(refnisLevel)).toEqual(['kingdom', 'region', 'province', 'province', 'arrondissement', 'commune', 'commune']);
    expect(['21004', '23027', '25105', '11002', '63049', '20001', '20002'].map(regionOfCode)).toEqual(['04000', '02000', '03000', '02000', '03000', '02000', '03000']);
    expect(['21004', '23027', '25105', '63049', '11000'].map(provinceOfCode)).toEqual([null, '20001', '20002', '60000', '10000']);
  });

  it('reads the REFNIS sample (Latin-1) with names, language regimes and parents', async () => {
    const refnis = await readRefnis(join(SAMPLES, 'statbel-sectors/REFNIS_2024.csv'));
    expect(refnis.get('21004')).toMatchObject({ fr: 'Bruxelles', nl: 'Brussel', regime: 'FN', region: '04000', province: null, arrondissement: '21000' });
    expect(refnis.get('20002')).toMatchObject({ level: 'province', fr: 'Province du Brabant wallon' });
    const chain = communeChain('25105', null, refnis) as { level: string; code: string; name: string | null }[];
    expect(chain.map((z) => `${z.level}:${z.code}:${z.name}`)).toEqual([
      'administrative_area_level1:03000:RÉGION WALLONNE', 'administrative_area_level2:20002:Province du Brabant wallon',
      'administrative_area_level3:25000:Arrondissement de Nivelles', 'locality:25105:Tubize',
    ]);
    expect(communeChain('99999', null, refnis)).toBe('NIS code 99999 is not a commune of the REFNIS list');
  });

  it('refuses a sector whose code is not in its commune', () => {
    expect(sectorChain({ CD_SECTOR: '21009A01-', CD_MUNTY_REFNIS: '21004' }, null)).toBe('sector 21009A01- is not in commune 21004');
    expect(sectorChain({ CD_SECTOR: '', CD_MUNTY_REFNIS: '21004' }, null)).toMatch(/^CD_SECTOR empty/);
  });
});

describe('be.best', () => {
  it('splits house numbers; a box number is not a suffix', () => {
    expect(splitHouseNumber('12')).toEqual({ number: 12, rep: null });
    expect(splitHouseNumber('12A')).toEqual({ number: 12, rep: 'a' });
    expect(splitHouseNumber('12/1')).toEqual({ number: 12, rep: null });
  });

  it('publishes one address per house, refuses retired or unplaced ones with their reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-best-'));
    const sample = (await readFile(join(SAMPLES, 'best/openaddress-bebru.csv'), 'utf8')).trim().split('\n');
    const boxed = sample[1]!.replace(',,,1,', ',20061311,1,1,');
    const retired = sample[2]!.replace(/,current$/, ',retired');
    const noPlace = sample[3]!.split(',').map((v, i) => (i < 4 ? '' : v)).join(',');
    const file = join(dir, 'openaddress-bebru.csv');
    await writeFile(file, [sample[0], sample[1], boxed, retired, noPlace, ...sample.slice(4)].join('\n') + '\n');
    expect(sample[0]!.split(',')).toEqual(expect.arrayContaining([...BEST_COLUMNS]));
    const ctx = { ...silentContext(join(dir, 'data')), maxRejectShare: 0.5 };
    const [p] = await ingestBestFile(ctx, { path: file });
    expect(p).toMatchObject({ rows: sample.length - 1 - 2, rejects: 2 });
    const rejects = await readFile(p!.rejectsFile!, 'utf8');
    expect(rejects).toContain('4;status is not current, proposed or reserved (a retired address is not served)');
    expect(rejects).toContain('5;no position (lat/lon or Lambert 72 x/y)');
  });
});
