/**
 * Writes the CONTOURS-IRIS sample (Lambert-93): the IRIS of the 20 Paris arrondissements (several
 * per demo arrondissement, one elsewhere) and of Abzac (a single IRIS 0000, type Z).
 * Run: npx tsx datasets/fr/contours-iris/make-sample.ts
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRJ_LAMBERT93 } from '../tools/crs.ts';
import { girondeCells, irisCodeOf, parisCells } from '../tools/areas.ts';
import { dissolve } from '../tools/partition.ts';
import { irisOf } from '../tools/paris.ts';
import { writePolygonShapefile, type DbfField } from '../tools/shapefile-writer.ts';
import { communeName } from '../tools/admin-express.ts';

const here = dirname(fileURLToPath(import.meta.url));
const SAMPLE_DATE = new Date(Date.UTC(2024, 0, 15));

export const FIELDS_IRIS: DbfField[] = [
  { name: 'INSEE_COM', type: 'C', length: 5 },
  { name: 'NOM_COM', type: 'C', length: 50 },
  { name: 'IRIS', type: 'C', length: 4 },
  { name: 'CODE_IRIS', type: 'C', length: 9 },
  { name: 'NOM_IRIS', type: 'C', length: 50 },
  { name: 'TYP_IRIS', type: 'C', length: 1 },
];

const cells = [...parisCells(), ...girondeCells()];
const iris = dissolve(cells, (l) => {
  const c = irisCodeOf(l);
  return c && (c.startsWith('751') || c === '330010000') ? c : null;
});
const features = [...iris.entries()]
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(([code, geometry]) => {
    const com = code.slice(0, 5);
    const num = code.slice(5);
    const paris = com.startsWith('751');
    const name = paris ? irisOf(com).find((i) => i.iris === num)!.name : communeName(com);
    return {
      geometry,
      properties: { INSEE_COM: com, NOM_COM: communeName(com), IRIS: num, CODE_IRIS: code, NOM_IRIS: name, TYP_IRIS: paris ? 'H' : 'Z' },
    };
  });
writePolygonShapefile(join(here, 'CONTOURS-IRIS'), features, { fields: FIELDS_IRIS, prj: PRJ_LAMBERT93, date: SAMPLE_DATE });
console.log(`CONTOURS-IRIS ${features.length}`);
