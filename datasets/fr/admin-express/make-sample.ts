/**
 * Writes the metropolitan ADMIN EXPRESS sample (Lambert-93): REGION, DEPARTEMENT, COMMUNE,
 * ARRONDISSEMENT_MUNICIPAL. Run: npx tsx datasets/fr/admin-express/make-sample.ts
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRJ_LAMBERT93 } from '../tools/crs.ts';
import { girondeCells, parisCells, territoryOf } from '../tools/areas.ts';
import { dissolve, type Cell } from '../tools/partition.ts';
import { writePolygonShapefile, type ShapeFeature } from '../tools/shapefile-writer.ts';
import {
  arrondissementMunicipalRow,
  communeRow,
  departementRow,
  FIELDS_ARRONDISSEMENT_MUNICIPAL,
  FIELDS_COMMUNE,
  FIELDS_DEPARTEMENT,
  FIELDS_REGION,
  regionRow,
} from '../tools/admin-express.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const SAMPLE_DATE = new Date(Date.UTC(2024, 0, 15));

const communeOf = (t: string): string => (t.startsWith('751') ? '75056' : t);
const depOf = (c: string): string => c.slice(0, 2);
const regOf: Record<string, string> = { '75': '11', '33': '75' };

function layer(cells: Cell[], key: (territory: string) => string): Map<string, ShapeFeature['geometry']> {
  return dissolve(cells, (label) => {
    const t = territoryOf(label);
    return t === null ? null : key(t);
  });
}

export function buildMetro() {
  const cells = [...parisCells(), ...girondeCells()];
  const paris = cells; // both areas are far apart; dissolving them together is fine
  const arm = layer(paris, (t) => (t.startsWith('751') ? t : '')); // '' = not an arrondissement
  arm.delete('');
  const com = layer(cells, communeOf);
  const dep = layer(cells, (t) => depOf(communeOf(t)));
  const reg = layer(cells, (t) => regOf[depOf(communeOf(t))]);
  return { arm, com, dep, reg };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { arm, com, dep, reg } = buildMetro();
  const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const opts = (fields: typeof FIELDS_COMMUNE) => ({ fields, prj: PRJ_LAMBERT93, date: SAMPLE_DATE });
  writePolygonShapefile(join(here, 'REGION'), sorted(reg).map(([k, g]) => ({ geometry: g, properties: regionRow(k, 'FXX') })), opts(FIELDS_REGION));
  writePolygonShapefile(join(here, 'DEPARTEMENT'), sorted(dep).map(([k, g]) => ({ geometry: g, properties: departementRow(k, 'FXX') })), opts(FIELDS_DEPARTEMENT));
  writePolygonShapefile(join(here, 'COMMUNE'), sorted(com).map(([k, g]) => ({ geometry: g, properties: communeRow(k, 'FXX') })), opts(FIELDS_COMMUNE));
  writePolygonShapefile(
    join(here, 'ARRONDISSEMENT_MUNICIPAL'),
    sorted(arm).map(([k, g]) => ({ geometry: g, properties: arrondissementMunicipalRow(k) })),
    opts(FIELDS_ARRONDISSEMENT_MUNICIPAL),
  );
  const count = (m: Map<string, unknown>) => m.size;
  console.log(`REGION ${count(reg)}, DEPARTEMENT ${count(dep)}, COMMUNE ${count(com)}, ARRONDISSEMENT_MUNICIPAL ${count(arm)}`);
}
