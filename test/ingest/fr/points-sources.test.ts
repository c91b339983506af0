import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import type { Job } from '../../../ingest/core/define-job.ts';
import { chargingJob } from '../../../ingest/fr/charging.job.ts';
import { fuelJob } from '../../../ingest/fr/fuel.job.ts';
import { schoolsJob } from '../../../ingest/fr/schools.job.ts';
import { stationsJob } from '../../../ingest/fr/stations.job.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';

// fr.schools, fr.charging, fr.fuel (and fr.stations' field-name export) on their samples, read back against the files themselves.
type Row = { id: string; name: string | null; latitude: number; longitude: number; category: string; attributes: string; source: string };

async function run(job: Job, file: string) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-points-')), 'data');
  const logs: string[] = [];
  const summary = await job.run({ ...silentContext(dataDir), log: (l: string) => logs.push(l) }, ['--input', file]);
  const rows = await duckRows<Row>(`SELECT * FROM '${tableGlob(dataDir, 'fr', 'places')}' ORDER BY id`);
  return { dataDir, summary, rows, log: logs.join('\n') };
}
const tmpFile = async (name: string, content: string | Buffer) => { const f = join(await mkdtemp(join(tmpdir(), 'lds-points-')), name); writeFileSync(f, content); return f; };

/** A semicolon/comma CSV without quoted separators in the columns read, as records. */
function records(path: string, sep: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, 'utf8').trim().split('\n');
  const split = (l: string) => l.match(new RegExp(`("([^"]|"")*"|[^${sep}]*)(${sep}|$)`, 'g'))!.slice(0, -1).map((c) => c.replace(new RegExp(`${sep}$`), '').replace(/^"|"$/g, '').replace(/""/g, '"'));
  const cols = split(head!);
  return lines.map((l) => Object.fromEntries(split(l).map((v, i) => [cols[i]!, v])));
}

describe('fr.schools', () => {
  const SAMPLE = join(REPO_ROOT, 'datasets/fr/schools/fr-en-annuaire-education.csv');
  it('keeps the schools with a position, by UAI, with their category, name and address', async () => {
    const { summary, rows, log } = await run(schoolsJob, SAMPLE);
    const file = records(SAMPLE, ';');
    const schools = file.filter((r) => ['Ecole', 'Collège', 'Lycée'].includes(r.Type_etablissement!) && r.latitude !== '');
    expect(summary[0]).toMatchObject({ partition: 'fr.schools', rows: schools.length, rejects: 0 });
    expect(log).toContain('1 establishments that are not schools');
    expect(log).toContain('1 without a position in the directory');
    for (const s of schools) {
      const r = rows.find((x) => x.id === `fr.schools.${s.Identifiant_de_l_etablissement}`)!;
      expect(r).toMatchObject({ name: s.Nom_etablissement, latitude: Number(s.latitude), longitude: Number(s.longitude) });
    }
    expect(rows.find((r) => r.id === 'fr.schools.0750901A')!.category).toBe('school.primary');
    expect(rows.find((r) => r.id === 'fr.schools.0750902B')!.category).toBe('school.kindergarten');
    expect(rows.find((r) => r.id === 'fr.schools.0330901G')!.category).toBe('school.primary');
    expect(rows.find((r) => r.id === 'fr.schools.0750903C')!.category).toBe('school.high_school');
    // The name with a quoted semicolon is read whole.
    expect(rows.find((r) => r.id === 'fr.schools.0750904D')!.name).toBe('Lycée professionnel Sample; Métiers');
    expect(JSON.parse(rows.find((r) => r.id === 'fr.schools.0750901A')!.attributes)).toMatchObject({ address: '12 rue Sample, 75003 Paris 3e Arrondissement', sector: 'Public', uai: '0750901A' });
  });

  it('refuses a row without a UAI, and a file of another layout naming the columns', async () => {
    const lines = readFileSync(SAMPLE, 'utf8').trim().split('\n');
    const many = [lines[0], ...Array.from({ length: 150 }, () => lines[1]!).map((l, k) => l.replace('0750901A', `07${String(k).padStart(5, '0')}A`)), lines[1]!.replace('0750901A', 'XYZ')];
    const { summary } = await run(schoolsJob, await tmpFile('annuaire.csv', many.join('\n') + '\n'));
    expect(summary[0]).toMatchObject({ rows: 150, rejects: 1 });
    await expect(run(schoolsJob, await tmpFile('other.csv', 'uai;nom\n0750901A;Ecole\n'))).rejects.toThrow(/missing columns Identifiant_de_l_etablissement, Nom_etablissement/);
  });
});

describe('fr.charging', () => {
  const SAMPLE = join(REPO_ROOT, 'datasets/fr/charging/consolidation-etalab-schema-irve-statique.csv');
  it('serves one station per station id with its points and highest power, from "[longitude, latitude]"', async () => {
    const { summary, rows } = await run(chargingJob, SAMPLE);
    const file = records(SAMPLE, ',');
    const stations = new Map<string, Record<string, string>[]>();
    for (const r of file) {
      const key = r.id_station_itinerance === 'Non concerné' ? `local.${r.siren_amenageur}.${r.id_station_local}` : r.id_station_itinerance!;
      stations.set(key, [...(stations.get(key) ?? []), r]);
    }
    expect(summary[0]).toMatchObject({ partition: 'fr.charging', rows: stations.size, rejects: 0 });
    for (const [key, points] of stations) {
      const r = rows.find((x) => x.id === `fr.charging.${key}`)!;
      const [lng, lat] = JSON.parse(points[0]!.coordonneesXY!) as [number, number];
      expect(r).toMatchObject({ category: 'transport.charging_station', name: points[0]!.nom_station, latitude: lat, longitude: lng });
      expect(JSON.parse(r.attributes)).toMatchObject({ points: points.length, max_power_kw: Math.max(...points.map((p) => Number(p.puissance_nominale))), address: points[0]!.adresse_station });
    }
  });

  it('refuses swapped coordinates', async () => {
    const lines = readFileSync(SAMPLE, 'utf8').trim().split('\n');
    const many = [lines[0]!, ...Array.from({ length: 150 }, (_, k) => lines[1]!.replace('FRS75P75103001', `FRS75P7510${String(k).padStart(4, '0')}`)), lines[1]!.replace('FRS75P75103001', 'FRS75P75199999').replace('"[2.3631, 48.8628]"', '"[48.8628, 2.3631]"')];
    const { summary, dataDir } = await run(chargingJob, await tmpFile('irve.csv', many.join('\n') + '\n'));
    expect(summary[0]).toMatchObject({ rows: 150, rejects: 1 });
    expect(readFileSync(join(dataDir, 'fr/rejects/places.fr.charging.csv'), 'utf8')).toMatch(/is not in France \(swapped longitude and latitude\?\)/);
  });
});

describe('fr.fuel', () => {
  const SAMPLE = join(REPO_ROOT, 'datasets/fr/fuel/PrixCarburants_instantane.xml');
  it('reads the ISO-8859-1 flow, positions divided by 100,000, prices and motorway stations kept', async () => {
    const { summary, rows, log } = await run(fuelJob, SAMPLE);
    const xml = iconv.decode(readFileSync(SAMPLE), 'latin1');
    const pdvs = [...xml.matchAll(/<pdv id="(\d+)" latitude="([^"]*)" longitude="([^"]*)"[^>]*pop="(.)">/g)];
    const placed = pdvs.filter((p) => p[2] !== '');
    expect(summary[0]).toMatchObject({ partition: 'fr.fuel', rows: placed.length, rejects: 0 });
    expect(log).toContain('1 without a position');
    for (const [, id, lat, lng] of placed) {
      const r = rows.find((x) => x.id === `fr.fuel.${id}`)!;
      expect(r.latitude).toBeCloseTo(Number(lat) / 100_000, 7);
      expect(r.longitude).toBeCloseTo(Number(lng) / 100_000, 7);
      expect(r.category).toBe('transport.fuel');
    }
    const motorway = JSON.parse(rows.find((r) => r.id === 'fr.fuel.33870002')!.attributes);
    expect(motorway).toMatchObject({ road: 'motorway', address: 'AIRE DE SAMPLE A89, 33870 Vayres' });
    expect(motorway.prices).toEqual([{ fuel: 'Gazole', price: 2.019, updated: '2024-06-03 06:12:00' }, { fuel: 'E85', price: 0.999, updated: '2024-06-03 06:12:00' }]);
    expect(JSON.parse(rows.find((r) => r.id === 'fr.fuel.33230001')!.attributes).services).toEqual(['Boutique non alimentaire']);
  });

  it('refuses a position outside France and a file that is not the flow', async () => {
    const xml = iconv.decode(readFileSync(SAMPLE), 'latin1');
    const blocks = xml.split('\n  <pdv ').slice(1).map((b) => `  <pdv ${b.replace(/\n<\/pdv_liste>\n$/, '')}`);
    const many = Array.from({ length: 120 }, (_, k) => blocks[0]!.replace('id="75003001"', `id="${75000000 + k}"`));
    many.push(blocks[0]!.replace('id="75003001"', 'id="1"').replace('latitude="4886320"', 'latitude="48.8632"'));
    const file = await tmpFile('flow.xml', iconv.encode(`<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>\n<pdv_liste>\n${many.join('\n')}\n</pdv_liste>\n`, 'latin1'));
    const { summary, dataDir } = await run(fuelJob, file);
    expect(summary[0]).toMatchObject({ rows: 120, rejects: 1 });
    const rejects = readFileSync(join(dataDir, 'fr/rejects/places.fr.fuel.csv'), 'utf8');
    expect(rejects).toMatch(/pdv 1: latitude\/longitude 48\.8632\/236410 divided by 100000 is not in France/);
    // The line of the refused <pdv> in the file.
    const line = `<?xml ...>\n<pdv_liste>\n${many.join('\n')}`.split('\n').findIndex((l) => l.includes('<pdv id="1"')) + 1;
    expect(rejects).toContain(`\n${line};`);
    await expect(run(fuelJob, await tmpFile('other.xml', '<?xml version="1.0"?>\n<stations><s/></stations>\n'))).rejects.toThrow(/not the fuel-price flow: no <pdv_liste> root \(found stations\)/);
  });
});

describe('fr.stations', () => {
  it('reads an export with the field names as well as one with the labels', async () => {
    const labels = readFileSync(join(REPO_ROOT, 'datasets/fr/stations/gares-de-voyageurs.csv'), 'utf8').split('\n');
    const fields = ['nom;libellecourt;segment_drg;position_geographique;codeinsee;codes_uic', ...labels.slice(1)].join('\n');
    const a = await run(stationsJob, join(REPO_ROOT, 'datasets/fr/stations/gares-de-voyageurs.csv'));
    const b = await run(stationsJob, await tmpFile('gares.csv', fields));
    expect(b.rows.map(({ id, name, latitude, longitude, attributes }) => ({ id, name, latitude, longitude, attributes })))
      .toEqual(a.rows.map(({ id, name, latitude, longitude, attributes }) => ({ id, name, latitude, longitude, attributes })));
    expect(b.rows).toHaveLength(labels.filter((l) => l.trim()).length - 1);
  });
});
