import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { adminExpressSource } from '../../datasets/fr/admin-express/source.ts';
import { contoursIrisSource } from '../../datasets/fr/contours-iris/source.ts';
import type { ZoneLevel } from '../../schemas/zone.ts';
import type { Source } from '../../datasets/source.ts';
import type { JobContext, PartitionSummary } from '../core/job.ts';
import { ingestZoneFile, prop } from '../core/ingest-zones.ts';
import type { ZoneInput } from '../core/write-zones.ts';
import { frenchNames } from './french-names.ts';

type ZoneFields = Omit<ZoneInput, 'geometry'>;

/** Municipal arrondissements: Paris 751xx, Lyon 6938x, Marseille 132xx (201-216). */
export function isMunicipalArrondissement(code: string): boolean {
  return /^751(0[1-9]|1\d|20)$/.test(code) || /^6938[1-9]$/.test(code) || /^132(0[1-9]|1[0-6])$/.test(code);
}

interface Layer {
  /** Shapefile base name as IGN publishes it. */
  name: string;
  level: ZoneLevel;
  source: Source;
  toZone: (p: Record<string, unknown>) => ZoneFields | string;
}

const need = (p: Record<string, unknown>, name: string): string | null => prop(p, name);

/** ADMIN EXPRESS and CONTOURS-IRIS layers, each to its zone level of spec 2.4 and its parent. */
export const FR_LAYERS: Layer[] = [
  {
    name: 'REGION', level: 'administrative_area_level1', source: adminExpressSource,
    toZone: (p) => {
      const code = need(p, 'INSEE_REG');
      if (!code) return 'INSEE_REG empty';
      return { level: 'administrative_area_level1', code, name: need(p, 'NOM') ?? frenchNames.region(code), parent_level: 'country', parent_code: 'FR' };
    },
  },
  {
    name: 'DEPARTEMENT', level: 'administrative_area_level2', source: adminExpressSource,
    toZone: (p) => {
      const code = need(p, 'INSEE_DEP');
      if (!code) return 'INSEE_DEP empty';
      const reg = need(p, 'INSEE_REG') ?? frenchNames.departmentRegion(code);
      return { level: 'administrative_area_level2', code, name: need(p, 'NOM') ?? frenchNames.department(code), parent_level: reg ? 'administrative_area_level1' : null, parent_code: reg };
    },
  },
  {
    name: 'COMMUNE', level: 'locality', source: adminExpressSource,
    toZone: (p) => {
      const code = need(p, 'INSEE_COM');
      if (!code) return 'INSEE_COM empty';
      const dep = need(p, 'INSEE_DEP') ?? frenchNames.communeDepartment(code);
      return { level: 'locality', code, name: need(p, 'NOM') ?? frenchNames.commune(code), parent_level: dep ? 'administrative_area_level2' : null, parent_code: dep };
    },
  },
  {
    name: 'ARRONDISSEMENT_MUNICIPAL', level: 'sublocality_level1', source: adminExpressSource,
    toZone: (p) => {
      const code = need(p, 'INSEE_ARM');
      if (!code) return 'INSEE_ARM empty';
      const com = need(p, 'INSEE_COM') ?? frenchNames.arrondissementCommune(code);
      return { level: 'sublocality_level1', code, name: need(p, 'NOM') ?? frenchNames.commune(code), parent_level: com ? 'locality' : null, parent_code: com };
    },
  },
  {
    name: 'CONTOURS-IRIS', level: 'sublocality_level2', source: contoursIrisSource,
    toZone: (p) => {
      const code = need(p, 'CODE_IRIS');
      if (!code || !/^(\d{5}|2[AB]\d{3})\d{4}$/.test(code)) return `CODE_IRIS ${code ?? 'empty'} is not a 9-character IRIS code`;
      const com = need(p, 'INSEE_COM') ?? code.slice(0, 5);
      // In Paris, Lyon and Marseille an IRIS belongs to a municipal arrondissement.
      const parentLevel: ZoneLevel = isMunicipalArrondissement(com) ? 'sublocality_level1' : 'locality';
      return { level: 'sublocality_level2', code, name: need(p, 'NOM_IRIS'), parent_level: parentLevel, parent_code: com };
    },
  },
];

/** Finds the layers present in a folder (delivery unpacked) or the single layer a file is. */
export function findLayers(input: string): { layer: Layer; path: string; layerName?: string }[] {
  if (statSync(input).isDirectory()) {
    const out: { layer: Layer; path: string; layerName?: string }[] = [];
    const files = walk(input);
    for (const layer of FR_LAYERS) {
      const shp = files.find((f) => basenameNoExt(f).toUpperCase() === layer.name && f.toLowerCase().endsWith('.shp'));
      if (shp) out.push({ layer, path: shp });
    }
    return out;
  }
  const base = basenameNoExt(input).toUpperCase();
  const layer = FR_LAYERS.find((l) => base === l.name || base.startsWith(l.name));
  if (layer) return [{ layer, path: input }];
  if (input.toLowerCase().endsWith('.zip')) return FR_LAYERS.map((layer) => ({ layer, path: input, layerName: layer.name }));
  return [];
}

function basenameNoExt(p: string): string {
  const b = p.split(/[\\/]/).pop()!;
  return b.replace(/\.[^.]+$/, '');
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** Ingests every ADMIN EXPRESS / CONTOURS-IRIS layer found in the input, one partition per layer. */
export async function ingestFrZones(ctx: JobContext, input: string, opts: { encoding?: string } = {}): Promise<PartitionSummary[]> {
  if (!existsSync(input)) throw new Error(`input not found: ${input}`);
  const layers = findLayers(input);
  if (layers.length === 0) throw new Error(`no ADMIN EXPRESS or CONTOURS-IRIS layer found in ${input} (expected ${FR_LAYERS.map((l) => l.name).join(', ')})`);
  const out: PartitionSummary[] = [];
  for (const { layer, path, layerName } of layers) {
    const partition = `${layer.source.id.replace(/^fr\./, '')}.${layer.name.toLowerCase()}${partitionSuffix(path)}`;
    out.push(...await ingestZoneFile(ctx, {
      country: 'fr', job: 'fr.zones', source: layer.source, partition, input: { path }, layer: layerName, encoding: opts.encoding, toZone: layer.toZone,
    }));
  }
  return out;
}

/** Overseas deliveries are separate files: keep their partitions apart from the metropolitan ones. */
function partitionSuffix(path: string): string {
  const m = /(?:^|[^0-9])(97[1-6])(?:[^0-9]|$)/.exec(path);
  return m ? `.${m[1]}` : '';
}
