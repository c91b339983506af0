/**
 * Writes the La Réunion ADMIN EXPRESS sample (RGR92 / UTM zone 40S, EPSG:2975): REGION,
 * DEPARTEMENT, COMMUNE. Run: npx tsx datasets/fr/admin-express-974/make-sample.ts
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRJ_RGR92_UTM40S } from '../tools/crs.ts';
import { reunionCells, territoryOf } from '../tools/areas.ts';
import { dissolve } from '../tools/partition.ts';
import { writePolygonShapefile } from '../tools/shapefile-writer.ts';
import { communeRow, departementRow, FIELDS_COMMUNE, FIELDS_DEPARTEMENT, FIELDS_REGION, regionRow } from '../tools/admin-express.ts';

const here = dirname(fileURLToPath(import.meta.url));
const SAMPLE_DATE = new Date(Date.UTC(2024, 0, 15));

const cells = reunionCells();
const com = dissolve(cells, territoryOf);
const dep = dissolve(cells, (l) => (territoryOf(l) ? '974' : null));
const reg = dissolve(cells, (l) => (territoryOf(l) ? '04' : null));
const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
const opts = (fields: typeof FIELDS_COMMUNE) => ({ fields, prj: PRJ_RGR92_UTM40S, date: SAMPLE_DATE });
writePolygonShapefile(join(here, 'REGION'), sorted(reg).map(([k, g]) => ({ geometry: g, properties: regionRow(k, 'REU') })), opts(FIELDS_REGION));
writePolygonShapefile(join(here, 'DEPARTEMENT'), sorted(dep).map(([k, g]) => ({ geometry: g, properties: departementRow(k, 'REU') })), opts(FIELDS_DEPARTEMENT));
writePolygonShapefile(join(here, 'COMMUNE'), sorted(com).map(([k, g]) => ({ geometry: g, properties: communeRow(k, 'REU') })), opts(FIELDS_COMMUNE));
console.log(`REGION ${reg.size}, DEPARTEMENT ${dep.size}, COMMUNE ${com.size}`);
