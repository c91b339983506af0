import { createRequire } from 'node:module';

interface Entry { code: string; nom: string; type?: string; departement?: string; region?: string; commune?: string }

// The official geographic code (COG) as packaged by Etalab: completes names and hierarchy a boundary file omits.
const require = createRequire(import.meta.url);
let cache: { communes: Map<string, Entry>; departements: Map<string, Entry>; regions: Map<string, Entry> } | null = null;
function load() {
  if (!cache) {
    const byCode = (list: Entry[]) => new Map(list.map((e) => [e.code, e]));
    const communes = (require('@etalab/decoupage-administratif/data/communes.json') as Entry[])
      .filter((e) => e.type === 'commune-actuelle' || e.type === 'arrondissement-municipal');
    cache = {
      communes: byCode(communes),
      departements: byCode(require('@etalab/decoupage-administratif/data/departements.json') as Entry[]),
      regions: byCode(require('@etalab/decoupage-administratif/data/regions.json') as Entry[]),
    };
  }
  return cache;
}

export const frenchNames = {
  region: (code: string) => load().regions.get(code)?.nom ?? null,
  department: (code: string) => load().departements.get(code)?.nom ?? null,
  departmentRegion: (code: string) => load().departements.get(code)?.region ?? null,
  commune: (code: string) => load().communes.get(code)?.nom ?? null,
  communeDepartment: (code: string) => load().communes.get(code)?.departement ?? null,
  arrondissementCommune: (code: string) => load().communes.get(code)?.commune ?? null,
};
