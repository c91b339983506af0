import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shareAlike } from '../../../api/location/variant/sources.ts';
import { OSM_SOURCES } from '../../../datasets/osm/source.ts';
import { REPO_ROOT } from '../../../ingest/core/define-job.ts';
import { osmMotorwayJunctionsJob } from '../../../ingest/generic/osm-motorway-junctions.job.ts';
import { tableGlob } from '../../../schemas/tables/layout.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { osmPbf } from '../../helpers/osm-pbf.ts';

type Row = { id: string; name: string | null; latitude: number; longitude: number; category: string; attributes: string; source: string };

async function run(country: string, file: string) {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-osm-junctions-')), 'data');
  const logs: string[] = [];
  const summary = await osmMotorwayJunctionsJob.run({ ...silentContext(dataDir), log: (l: string) => logs.push(l) }, ['--country', country, '--input', file]);
  return { summary, rows: await duckRows<Row>(`SELECT * FROM '${tableGlob(dataDir, country, 'places')}' ORDER BY id`), log: logs.join('\n') };
}

function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin((lat2 - lat1) * r / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin((lng2 - lng1) * r / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}

/** The sample's junction nodes as its XML says them (regular expressions: one node per line). */
function xmlJunctions(cc: string) {
  return readFileSync(join(REPO_ROOT, `datasets/${cc}/osm/motorway-junctions.osm`), 'utf8').split('\n').filter((l) => l.includes('v="motorway_junction"')).map((l) => ({
    id: Number(/ id="(\d+)"/.exec(l)![1]), lat: Number(/lat="([-\d.]+)"/.exec(l)![1]), lng: Number(/lon="([-\d.]+)"/.exec(l)![1]),
    ref: /k="ref" v="([^"]*)"/.exec(l)?.[1] ?? null, name: /k="name" v="([^"]*)"/.exec(l)?.[1] ?? null,
  }));
}

describe('osm-motorway-junctions', () => {
  it.each(['fr', 'ca', 'be'])('%s: one access per exit, the carriageways of one exit (same ref and name within 1 km) together', async (cc) => {
    const { summary, rows, log } = await run(cc, join(REPO_ROOT, `datasets/${cc}/osm/motorway-junctions.osm.pbf`));
    const nodes = xmlJunctions(cc);
    const groupOf = new Map<number, Row>();
    for (const r of rows) for (const id of JSON.parse(r.attributes).osm_node_ids as number[]) { expect(groupOf.has(id)).toBe(false); groupOf.set(id, r); }
    expect([...groupOf.keys()].sort((a, b) => a - b)).toEqual(nodes.map((n) => n.id).sort((a, b) => a - b));
    // Brute force over every pair: together exactly when they share a ref and a name within 1,000 m (no chains in the samples).
    for (const a of nodes) for (const b of nodes) {
      if (a.id >= b.id) continue;
      const same = a.ref !== null && a.ref === b.ref && a.name === b.name && haversine(a.lat, a.lng, b.lat, b.lng) <= 1000;
      expect(groupOf.get(a.id) === groupOf.get(b.id), `${a.id} ${b.id}`).toBe(same);
    }
    for (const r of rows) {
      const head = nodes.find((n) => r.id === `${cc}.osm.node.${n.id}`)!;
      expect(Math.min(...(JSON.parse(r.attributes).osm_node_ids as number[]))).toBe(head.id);
      expect(r).toMatchObject({ latitude: head.lat, longitude: head.lng, name: head.name, category: 'transport.highway_access', source: `${cc}.osm` });
      expect(JSON.parse(r.attributes).ref).toBe(head.ref);
    }
    expect(summary[0]).toMatchObject({ partition: `${cc}.osm-motorway-junctions`, rows: rows.length, rejects: 0 });
    expect(rows.length).toBeLessThan(nodes.length);
    expect(log).toContain(`${rows.length} points from ${nodes.length} rows`);
  });

  it('France: Saint-Denis (A1 exit 2, two carriageways) is one access, Charenton (A4 exit 2) another; the same exit 5 km away stays apart', async () => {
    const { rows } = await run('fr', join(REPO_ROOT, 'datasets/fr/osm/motorway-junctions.osm.pbf'));
    expect(rows.filter((r) => JSON.parse(r.attributes).ref === '2').map((r) => [r.name, JSON.parse(r.attributes).osm_node_ids])).toEqual([
      ['Saint-Denis - Stade de France', [101, 102]], ['Charenton-le-Pont', [201]],
    ]);
    expect(rows.find((r) => r.id === 'fr.osm.node.204')).toMatchObject({ name: 'Joinville-le-Pont' });
    expect(JSON.parse(rows.find((r) => r.id === 'fr.osm.node.204')!.attributes)).toMatchObject({ ref: null, exit_to: 'Joinville-le-Pont;Saint-Maurice' });
    const far = join(await mkdtemp(join(tmpdir(), 'lds-osm-junctions-')), 'far.osm.pbf');
    const tags = { highway: 'motorway_junction', ref: '7', name: 'X' };
    writeFileSync(far, osmPbf({ blocks: [{ nodes: [{ id: 1, lat: 48.8, lng: 2.4, tags }, { id: 2, lat: 48.845, lng: 2.4, tags }, { id: 3, lat: 48.8005, lng: 2.4, tags }] }] }));
    expect((await run('fr', far)).rows.map((r) => JSON.parse(r.attributes).osm_node_ids)).toEqual([[1, 3], [2]]);
  });

  it('cites OpenStreetMap under the ODbL: share-alike', () => {
    for (const s of Object.values(OSM_SOURCES)) expect(shareAlike(s.licence)).toBe(true);
  });
});
