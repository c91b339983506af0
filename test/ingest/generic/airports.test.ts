import { writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { airportsJob } from '../../../ingest/generic/airports.job.ts';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';

type Row = { id: string; name: string | null; latitude: number; longitude: number; category: string; attributes: string; source: string };
const sample = (cc: string) => join(REPO_ROOT, `datasets/${cc}/airports/airports.csv`);

async function run(country: string, file: string) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-airports-')), 'data');
  const logs: string[] = [];
  const summary = await airportsJob.run({ ...silentContext(dataDir), log: (l: string) => logs.push(l) }, ['--country', country, '--input', file]);
  return { summary, dataDir, rows: await duckRows<Row>(`SELECT * FROM '${tableGlob(dataDir, country, 'places')}' ORDER BY id`), log: logs.join('\n') };
}

/** The rule read independently: DuckDB's own CSV reader over the published file, the kept rows selected in SQL. */
async function kept(file: string, isoCodes: string[]) {
  return duckRows<{ id: string; name: string; lat: number; lng: number; iata: string | null }>(
    `SELECT id::VARCHAR AS id, name, latitude_deg AS lat, longitude_deg AS lng, iata_code AS iata FROM read_csv('${file}', header = true, all_varchar = false)
     WHERE iso_country IN (${isoCodes.map((c) => `'${c}'`).join(', ')}) AND type IN ('large_airport', 'medium_airport') AND scheduled_service = 'yes' ORDER BY id`);
}

describe('airports (OurAirports)', () => {
  it.each([
    ['fr', ['FR', 'GP', 'MQ', 'GF', 'RE', 'YT', 'BL', 'MF'], ['BOD', 'BSL', 'CDG', 'ORY', 'RUN']],
    ['ca', ['CA'], ['YHU', 'YOW', 'YQB', 'YUL']],
    ['be', ['BE'], ['ANR', 'BRU', 'CRL', 'LGG', 'OST']],
  ])('%s: the large and medium airports with scheduled service of the country, as DuckDB reads the file', async (cc, iso, iatas) => {
    const { summary, rows, log } = await run(cc, sample(cc));
    const expected = await kept(sample(cc), iso);
    expect(summary[0]).toMatchObject({ partition: `${cc}.airports`, rows: expected.length, rejects: 0 });
    expect(rows.map((r) => r.id)).toEqual(expected.map((e) => `${cc}.airports.${e.id}`).sort());
    for (const e of expected) {
      const r = rows.find((x) => x.id === `${cc}.airports.${e.id}`)!;
      expect(r).toMatchObject({ name: e.name, latitude: e.lat, longitude: e.lng, category: 'transport.airport', source: `${cc}.airports` });
      expect(JSON.parse(r.attributes).iata).toBe(e.iata);
    }
    expect(rows.map((r) => JSON.parse(r.attributes).iata).sort()).toEqual(iatas);
    expect(log).toMatch(/left out: .*in other countries/);
  });

  it('leaves out airfields, heliports, closed sites and airports without scheduled service, counted by reason', async () => {
    const { log } = await run('fr', sample('fr'));
    // Le Bourget (medium, no scheduled service); Toussus and Libourne (small); Issy heliport; a closed field; Heathrow.
    expect(log).toContain('airports: 5 points from 11 rows, 0 refused; left out:');
    for (const why of ['1 without scheduled airline service', '2 of type small_airport', '1 of type heliport', '1 of type closed', '1 in other countries']) expect(log).toContain(why);
  });

  it('reads the older layout without icao_code, a quoted field with commas and doubled quotes; refuses a broken position; names missing columns', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-airports-'));
    const old = [
      '"id","ident","type","name","latitude_deg","longitude_deg","elevation_ft","continent","iso_country","iso_region","municipality","scheduled_service","gps_code","iata_code","local_code","home_link","wikipedia_link","keywords"',
      '2200,"EBBR","large_airport","Brussels Airport, ""Zaventem""",50.9014,4.48444,184,"EU","BE","BE-VBR","Zaventem","yes","EBBR","BRU",,,,"Brussel Nationaal, Zaventem"',
      ...Array.from({ length: 120 }, (_, k) => `${9000 + k},"EB${k}","medium_airport","Field ${k}",50.${k},4.3,0,"EU","BE","BE-BRU","X","yes","EB${k}",,,,,`),
      '2999,"EBXX","medium_airport","Broken",north,4.3,0,"EU","BE","BE-BRU","X","yes","EBXX",,,,,',
    ];
    writeFileSync(join(dir, 'airports.csv'), `${old.join('\n')}\n`);
    const { summary, rows } = await run('be', join(dir, 'airports.csv'));
    expect(summary[0]).toMatchObject({ rows: 121, rejects: 1 });
    expect(rows.find((r) => r.id === 'be.airports.2200')).toMatchObject({ name: 'Brussels Airport, "Zaventem"', latitude: 50.9014 });
    expect(JSON.parse(rows.find((r) => r.id === 'be.airports.2200')!.attributes)).toMatchObject({ iata: 'BRU', icao: null, ident: 'EBBR' });
    writeFileSync(join(dir, 'other.csv'), 'id,name,lat,lon\n1,x,50,4\n');
    await expect(run('be', join(dir, 'other.csv'))).rejects.toThrow(/not OurAirports' airports.csv \(other.csv\): missing columns ident, type, latitude_deg, longitude_deg, iso_country, scheduled_service; found id, name, lat, lon/);
  });
});
