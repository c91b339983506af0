import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobById } from '../../ingest/jobs.ts';
import { LocationResponse } from '../../api/location/domains/location/routes.ts';
import { silentContext } from '../helpers/fixture-data.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

// The real BAL of commune 54084 (Mont-Bonvillers; ../shared/realdata, not in the repository): every
// address asked as "<numero> [<suffixe>] <voie_nom> <commune_nom>", as a partner would.
const FILE = join(import.meta.dirname, '../../../shared/realdata/fr/bal/adresses-54084_csv-bal_Mont-Bonvillers.csv');
const present = existsSync(FILE);

interface BalRow { numero: string; suffixe: string; voie_nom: string; commune_nom: string; long: number; lat: number }
function balRows(): BalRow[] {
  const [head, ...lines] = readFileSync(FILE, 'utf8').split(/\r?\n/).filter(Boolean);
  const cols = head!.split(';');
  return lines.map((l) => { const v = l.split(';'); const r = Object.fromEntries(cols.map((c, i) => [c, v[i] ?? ''])); return { ...r, long: Number(r.long), lat: Number(r.lat) } as unknown as BalRow; });
}

/** Share of the rows found at their number (precision address, same number and suffix, within 1 m of the published point). */
async function foundAtNumber(t: TestApp, rows: BalRow[]): Promise<{ found: number; missed: string[] }> {
  let found = 0;
  const missed: string[] = [];
  for (const r of rows) {
    const number = `${r.numero}${r.suffixe ? ` ${r.suffixe}` : ''}`;
    const q = `${number} ${r.voie_nom} ${r.commune_nom}`;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/fr/location?address=${encodeURIComponent(q)}`, headers: { authorization: `Bearer ${t.key}` } });
    const loc = res.statusCode === 200 ? LocationResponse.parse(res.json()).data.location : null;
    const near = loc !== null && Math.abs(loc.latitude - r.lat) < 1e-5 && Math.abs(loc.longitude - r.long) < 1e-5;
    if (loc?.precision === 'address' && loc.address?.street_number === number && near) found++;
    else missed.push(`${q} -> ${res.statusCode} ${loc?.precision ?? ''} ${loc?.address?.label ?? ''}`);
  }
  return { found, missed };
}

describe.skipIf(!present)('the real BAL of commune 54084', () => {
  const apps: TestApp[] = [];
  afterAll(async () => { for (const t of apps) await t.close(); });
  const rows = present ? balRows() : [];

  it('through fr.bal: every address found at its number when asked with its commune name (target: 99 %)', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-bal-real-')), 'data');
    const [p] = await jobById('fr.bal')!.run(silentContext(dataDir), ['--input', FILE]);
    expect(p).toMatchObject({ partition: 'adresses-54', rows: rows.length, rejects: 0 });
    const t = await buildTestApp(dataDir);
    apps.push(t);
    const { found, missed } = await foundAtNumber(t, rows);
    console.log(`fr.bal 54084: ${found} of ${rows.length} found at the number (${(100 * found / rows.length).toFixed(1)} %)${missed.length ? `; missed: ${missed.join(' | ')}` : ''}`);
    expect(found / rows.length).toBeGreaterThanOrEqual(0.99);
  }, 300_000);

  it('through the generic addresses job, number, suffix and street columns named: found as well', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-bal-generic-')), 'data');
    const [p] = await jobById('addresses')!.run(silentContext(dataDir), ['--country', 'fr', '--input', FILE, '--separator', ';', '--id-column', 'cle_interop',
      '--number-column', 'numero', '--suffix-column', 'suffixe', '--street-column', 'voie_nom', '--locality-column', 'commune_nom', '--locality-code-column', 'commune_insee',
      '--lng-column', 'long', '--lat-column', 'lat']);
    expect(p).toMatchObject({ rows: rows.length, rejects: 0 });
    const t = await buildTestApp(dataDir);
    apps.push(t);
    const { found, missed } = await foundAtNumber(t, rows);
    console.log(`generic addresses 54084: ${found} of ${rows.length} found at the number${missed.length ? `; missed: ${missed.slice(0, 10).join(' | ')}` : ''}`);
    expect(found / rows.length).toBeGreaterThanOrEqual(0.99);
  }, 300_000);
});
