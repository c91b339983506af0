import { brusselsFloodSource, BE_FLOOD_LAYER } from '../../datasets/be/brussels-flood/source.ts';
import { brusselsSoilSource, BE_SOIL_LAYER } from '../../datasets/be/brussels-soil/source.ts';
import { textOf, type Classified, type HazardLayer } from '../core/hazard-polygons.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { ingestSitePolygons, type SitePolygonLayer } from '../core/site-polygons.ts';

/** The map's hazard classes (ALEA_FR as published, accents and case tolerated) -> the common scale (spec 2.5). */
export function brusselsFloodLevel(alea: string): 'low' | 'moderate' | 'high' | null {
  const t = alea.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().replace(/^alea\s+/, '').trim();
  return ({ faible: 'low', moyen: 'moderate', eleve: 'high' } as const)[t as 'faible'] ?? null;
}

export const BE_FLOOD: HazardLayer = {
  country: 'be', source: brusselsFloodSource, layer: BE_FLOOD_LAYER, required: ['ID', 'ALEA_FR'], idAttribute: 'ID',
  classify: (p): Classified => {
    const level = brusselsFloodLevel(textOf(p.ALEA_FR));
    return level ? { attributes: { level, alea: textOf(p.ALEA_FR) } } : { reject: `ALEA_FR ${JSON.stringify(p.ALEA_FR ?? null)} is not a hazard class of the map (Aléa faible, moyen, élevé)` };
  },
};

export type SoilSite = { type: 'contaminated_land' | 'suspected_land'; status: 'suspected' | 'confirmed' | 'under_treatment' };

/**
 * A parcel's category (CATEGORIE: 0 to 4, or a combination such as "0+3") -> the spec's type and
 * status (spec 2.10): any of 2, 3 (established pollution) or 4 (under study or treatment) makes
 * contaminated land, status under_treatment with 4 else confirmed; 0 alone (presumed pollution)
 * suspected land; 1 alone, recognised as unpolluted, is never served (null). Another value: why.
 */
export function soilCategory(raw: string): SoilSite | null | { reject: string } {
  const parts = raw.replace(/\s+/g, '').split('+').filter(Boolean);
  if (parts.length === 0 || parts.some((p) => !/^[0-4]$/.test(p))) return { reject: `CATEGORIE ${JSON.stringify(raw)} is not a category of the inventory (0 to 4, or a combination such as 0+3)` };
  if (parts.includes('4')) return { type: 'contaminated_land', status: 'under_treatment' };
  if (parts.includes('2') || parts.includes('3')) return { type: 'contaminated_land', status: 'confirmed' };
  if (parts.includes('0')) return { type: 'suspected_land', status: 'suspected' };
  return null;
}

export const soilCategoryOf = (type: SoilSite['type']) => `polluted_site.${type}`;

/**
 * The soil-status inventory's parcels into be/hazard_areas (layer soil_status: `inside`) and
 * be/polluted_sites (the parcel's centre of mass: counts and nearest items), both partition
 * be.brussels-soil. A parcel of category 1 only (recognised as unpolluted) is left out, counted
 * nowhere: the spec never serves it. A layer without CAPAKEY or CATEGORIE fails naming it.
 */
export const BE_SOIL: SitePolygonLayer = {
  country: 'be', source: brusselsSoilSource, layer: BE_SOIL_LAYER, required: ['CAPAKEY', 'CATEGORIE'], idAttribute: 'CAPAKEY',
  classify: (p) => {
    const site = soilCategory(textOf(p.CATEGORIE));
    if (site === null || 'reject' in site) return site;
    return { category: soilCategoryOf(site.type), attributes: { ...site, category: textOf(p.CATEGORIE) } };
  },
};

export const ingestBrusselsSoil = (ctx: JobContext, input: JobInput & { layer?: string }): Promise<PartitionSummary[]> => ingestSitePolygons(ctx, input, BE_SOIL);
