import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestGenericZones } from '../../ingest/generic/zones.ts';
import { ingestBeZones } from '../../ingest/be/zones.ts';
import { ingestCaZones } from '../../ingest/ca/zones.ts';
import { LocationResponse } from '../../api/location/domains/location/routes.ts';
import { ErrorBody } from '../../schemas/error.ts';
import { silentContext } from '../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

// Real boundary files of Belgium and Quebec through the generic zones job, served by the country routes.
const REAL = join(import.meta.dirname, '../../../shared/realdata');
const present = existsSync(join(REAL, 'be')) && existsSync(join(REAL, 'ca'));

describe.skipIf(!present)('real Belgian and Quebec boundaries', () => {
  let t: TestApp;
  const get = async (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });

  beforeAll(async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-be-ca-')), 'data');
    const ctx = silentContext(dataDir);
    // Flemish and Brussels municipalities (Lambert 72 shapefile, NIS codes, Dutch names) with Statbel's REFNIS list (Latin-1):
    // communes named in their official languages, arrondissements, provinces and regions as unions of communes.
    const be = await ingestBeZones(ctx, {
      input: join(REAL, 'be/municipalities_flanders_brussels_2024/gemeente2024.shp'), codeProperty: 'gemeente', nameProperty: 'naam',
      refnis: join(REAL, 'be/statbel_refnis_municipalities/REFNIS_2019.csv'),
    });
    // 319 communes, 23 arrondissements (22 Flemish, Brussels-Capital), 5 provinces, 2 regions.
    expect(be).toMatchObject([{ table: 'zones', rows: 349, rejects: 0 }, { table: 'zone_cells' }]);
    // Quebec administrative regions: NAD83 shapefile whose DBF is in code page 850 and does not say so.
    const [ca] = await ingestGenericZones(ctx, {
      country: 'ca', level: 'administrative_area_level2', input: join(REAL, 'ca/quebec_regions_sda_regio_s/regio_s.shp'),
      codeProperty: 'RES_CO_REG', nameProperty: 'RES_NM_REG', encoding: 'cp850',
    });
    // 21 records for 17 regions: Côte-Nord's five records become one zone.
    expect(ca).toMatchObject({ rows: 17, rejects: 0 });
    // CITQ address points (Windows-1252, number and street in one column) through the generic addresses job.
    const { jobById } = await import('../../ingest/jobs.ts');
    const [citq] = await jobById('addresses')!.run({ ...ctx, maxRejectShare: 0.03 }, [
      '--country', 'ca', '--input', join(REAL, 'ca/citq_hebergement_adresses/adresses.csv'), '--encoding', 'cp1252', '--id-column', 'ADR_ID',
      '--address-column', 'ADR_CIVIQUE', '--postcode-column', 'ADR_CODE_POSTAL', '--locality-column', 'ADR_MUNICIPALITE',
      '--lng-column', 'ADR_LONGITUDE', '--lat-column', 'ADR_LATITUDE',
    ]);
    // 10,819 rows; refused with their line: 93 without coordinates, 114 without street, 62 without municipality.
    expect(citq!.rows + citq!.rejects).toBe(10_819);
    expect(citq!.rejects).toBe(269);
    // Montreal's roll units (no coordinates) placed between the CITQ numbers of their street where the CITQ file lacks them:
    // 16 of 216 here (CITQ has few numbers per street; 9 before issue 18, when the 670 ranges "N-M, street" kept
    // "-M, street" as their street); the others are refused with their reason (no number on both
    // sides, no official address on the street, lots numbered 99999), hence the share allowed.
    const [roll] = await jobById('ca.montreal-roll')!.run({ ...ctx, maxRejectShare: 1 }, ['--input', join(REAL, 'ca/montreal_unites_evaluation_fonciere/uniteevaluationfonciere_extrait.csv')]);
    expect(roll).toMatchObject({ rows: 16, rejects: 200 });
    // Montreal's arrondissements and villes liées, named and attached to their equivalent territory by MAMH's MUN.csv.
    const montreal = await ingestCaZones(ctx, {
      montreal: join(REAL, 'ca/montreal_limadmin/limadmin.geojson'), mun: join(REAL, 'ca/repertoire_municipalites/MUN.csv'),
    });
    // 19 arrondissements, the City of Montréal (their union), 15 villes liées, the equivalent territory 66.
    expect(montreal[0]).toMatchObject({ table: 'zones', rows: 36, rejects: 0 });
    t = await buildTestApp(dataDir);
    // National-size boundary files: about 20 s on an idle machine, more on a shared one.
  }, 300_000);

  it('finds a CITQ address of Montreal at the number, in any spelling of the street type', async () => {
    for (const q of ['3101, boul. Édouard-Montpetit, Montréal', '3101 boulevard Edouard-Montpetit Montreal', '3101 boul. Édouard-Montpetit, Montréal H3T 1K3']) {
      const res = await get(`/api/v1/ca/location?address=${encodeURIComponent(q)}`);
      expect(res.statusCode, res.body).toBe(200);
      const loc = LocationResponse.parse(res.json()).data.location;
      expect(loc.precision, q).toBe('address');
      expect(loc.address).toMatchObject({ street_number: '3101', zipcode: 'H3T1K3', locality: 'Montréal' });
      expect(loc.latitude).toBeCloseTo(45.501159, 6);
      expect(loc.zones.administrative_area_level2?.code).toBe('06');
    }
  });
  afterAll(async () => { await t?.close(); });

  it('finds a roll unit absent from the CITQ file at its number, zipcode null', async () => {
    const res = await get(`/api/v1/ca/location?address=${encodeURIComponent('4433 rue Saint-Hubert, Montréal')}`);
    const loc = LocationResponse.parse(res.json()).data.location;
    expect(loc.precision).toBe('address');
    expect(loc.address).toMatchObject({ street_number: '4433', zipcode: null, locality: 'Montréal' });
    expect(loc.latitude).toBeCloseTo(45.5262889, 6);
  });

  it('places the Grand-Place in Brussels, Brussels-Capital having no province, names from REFNIS', async () => {
    const res = await get('/api/v1/be/location?lat=50.8467&lng=4.3525');
    expect(res.statusCode).toBe(200);
    const loc = LocationResponse.parse(res.json()).data.location;
    expect(loc.zones.country?.code).toBe('BE');
    expect(loc.zones.locality).toEqual({ level: 'locality', code: '21004', name: 'Bruxelles / Brussel' });
    expect(loc.zones.administrative_area_level3?.code).toBe('21000');
    expect(loc.zones.administrative_area_level2).toBeNull();
    expect(loc.zones.administrative_area_level1?.code).toBe('04000');
  });

  it('places Antwerp in its arrondissement, province and region', async () => {
    const loc = LocationResponse.parse((await get('/api/v1/be/location?lat=51.2194&lng=4.4025')).json()).data.location;
    expect(loc.zones.locality).toEqual({ level: 'locality', code: '11002', name: 'Antwerpen' });
    expect(loc.zones.administrative_area_level3?.code).toBe('11000');
    expect(loc.zones.administrative_area_level2?.name).toBe('Provincie Antwerpen');
    expect(loc.zones.administrative_area_level1?.code).toBe('02000');
  });

  it('places Montreal points in their arrondissement or ville liée, with the equivalent territory from MUN.csv', async () => {
    const plateau = LocationResponse.parse((await get('/api/v1/ca/location?lat=45.5205&lng=-73.5790')).json()).data.location;
    expect(plateau.zones.sublocality_level1).toEqual({ level: 'sublocality_level1', code: 'REM21', name: 'Le Plateau-Mont-Royal' });
    expect(plateau.zones.locality).toEqual({ level: 'locality', code: '66023', name: 'Montréal' });
    expect(plateau.zones.administrative_area_level3).toEqual({ level: 'administrative_area_level3', code: '66', name: 'Montréal' });
    const westmount = LocationResponse.parse((await get('/api/v1/ca/location?lat=45.4833&lng=-73.5967')).json()).data.location;
    expect(westmount.zones.locality).toEqual({ level: 'locality', code: '66032', name: 'Westmount' });
    expect(westmount.zones.sublocality_level1).toBeNull();
    const zone = await get('/api/v1/ca/zones/locality/66032');
    expect(zone.statusCode).toBe(200);
  });

  it('places Ixelles and Antwerp in their municipalities', async () => {
    const ixelles = LocationResponse.parse((await get('/api/v1/be/location?lat=50.8275&lng=4.3720')).json()).data.location;
    expect(ixelles.zones.locality?.code).toBe('21009');
    const antwerp = LocationResponse.parse((await get('/api/v1/be/location?lat=51.2194&lng=4.4025')).json()).data.location;
    expect(antwerp.zones.locality?.code).toBe('11002');
  });

  it('answers outside_coverage for Lille on the Belgian route', async () => {
    const res = await get('/api/v1/be/location?lat=50.6292&lng=3.0573');
    expect(res.statusCode).toBe(422);
    expect(ErrorBody.parse(res.json()).error.code).toBe('outside_coverage');
  });

  it('places Montreal in its administrative region with the name decoded from cp850, and refuses Ottawa', async () => {
    const sept = LocationResponse.parse((await get('/api/v1/ca/location?lat=50.2120&lng=-66.3810')).json()).data.location;
    expect(sept.zones.administrative_area_level2?.code).toBe('09');
    const mtl = LocationResponse.parse((await get('/api/v1/ca/location?lat=45.5017&lng=-73.5673')).json()).data.location;
    expect(mtl.zones.country?.code).toBe('CA');
    expect(mtl.zones.administrative_area_level2).toEqual({ level: 'administrative_area_level2', code: '06', name: 'Montréal' });
    const gaspe = LocationResponse.parse((await get('/api/v1/ca/location?lat=48.8316&lng=-64.4869')).json()).data.location;
    expect(gaspe.zones.administrative_area_level2?.name).toBe('Gaspésie - Îles-de-la-Madeleine');
    const ottawa = await get('/api/v1/ca/location?lat=45.4236&lng=-75.7009');
    expect(ErrorBody.parse(ottawa.json()).error.code).toBe('outside_coverage');
    const gatineau = await get('/api/v1/ca/location?lat=45.4765&lng=-75.7013');
    expect(LocationResponse.parse(gatineau.json()).data.location.zones.administrative_area_level2?.code).toBe('07');
  });
});
