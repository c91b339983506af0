import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobContext, PartitionSummary } from '../ingest/core/job.ts';
import { ingestBeZones } from '../ingest/be/zones.ts';
import { ingestCaZones } from '../ingest/ca/zones.ts';

// CPU seconds and cover cells of the zone jobs whose wide levels are unions of finer zones, on the
// real extracts (../shared/realdata, when present) and on the samples. Run: npx tsx bench/zone-covers.ts
const ROOT = join(import.meta.dirname, '..');
const REAL = join(ROOT, '../shared/realdata');
const devNull = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;

const cases: { name: string; present: boolean; run: (ctx: JobContext) => Promise<PartitionSummary[]> }[] = [
  {
    name: 'ca.zones, real SDA regio_s (17 regions, province as their union)',
    present: existsSync(join(REAL, 'ca/quebec_regions_sda_regio_s/regio_s.shp')),
    run: (ctx) => ingestCaZones(ctx, { sda: join(REAL, 'ca/quebec_regions_sda_regio_s'), encoding: 'cp850' }),
  },
  {
    name: 'be.zones, real Flemish/Brussels communes with REFNIS',
    present: existsSync(join(REAL, 'be/municipalities_flanders_brussels_2024/gemeente2024.shp')),
    run: (ctx) => ingestBeZones(ctx, {
      input: join(REAL, 'be/municipalities_flanders_brussels_2024/gemeente2024.shp'), codeProperty: 'gemeente', nameProperty: 'naam',
      refnis: join(REAL, 'be/statbel_refnis_municipalities/REFNIS_2019.csv'),
    }),
  },
  {
    name: 'ca.zones, sample SDA and MUN.csv',
    present: true,
    run: (ctx) => ingestCaZones(ctx, { sda: join(ROOT, 'datasets/ca/sda'), mun: join(ROOT, 'datasets/ca/mun/MUN.csv') }),
  },
  {
    name: 'be.zones, sample Statbel sectors',
    present: true,
    run: (ctx) => ingestBeZones(ctx, {
      input: join(ROOT, 'datasets/be/statbel-sectors/sh_statbel_statistical_sectors_3812_20240101.geojson'),
      refnis: join(ROOT, 'datasets/be/statbel-sectors/REFNIS_2024.csv'),
    }),
  },
];

for (const c of cases) {
  if (!c.present) { console.log(`${c.name}: input absent, skipped`); continue; }
  const root = await mkdtemp(join(tmpdir(), 'bench-zones-'));
  const ctx: JobContext = { dataDir: join(root, 'data'), maxRejectShare: 0.01, now: () => new Date(), log: () => {}, progressOut: devNull };
  const start = process.cpuUsage();
  const wall = performance.now();
  const out = await c.run(ctx);
  const cpu = process.cpuUsage(start);
  const rows = (table: string) => out.filter((p) => p.table === table).reduce((s, p) => s + p.rows, 0);
  console.log(`${c.name}: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU, ${((performance.now() - wall) / 1000).toFixed(1)} s wall, ${rows('zones')} zones, ${rows('zone_cells')} cover cells`);
  await rm(root, { recursive: true, force: true });
}
