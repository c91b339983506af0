import { basename } from 'node:path';
import type { MultiPolygon, Polygon } from 'geojson';
import { refnisSource, statbelSectorsSource } from '../../datasets/be/statbel-sectors/source.ts';
import type { Source } from '../../datasets/source.ts';
import type { JobContext, PartitionSummary } from '../core/job.ts';
import { prop } from '../core/ingest-zones.ts';
import { readFeatures } from '../core/readers/features.ts';
import { Rejects } from '../core/rejects.ts';
import { reprojectGeometry, toWgs84 } from '../core/reproject.ts';
import { ZoneTree, publishTree, type TreeZone } from '../core/zone-tree.ts';
import { createProgress } from '../core/progress.ts';
import { provinceOfCode, readRefnis, regionOfCode, type RefnisEntry } from './refnis.ts';

type Lang = 'fr' | 'nl' | 'de';
export type Names = Partial<Record<Lang, string | null>>;

/** Language order of names by region when no commune regime is known: Brussels bilingual, Flanders Dutch, Wallonia French. */
const REGION_LANGS: Record<string, Lang[]> = { '04000': ['fr', 'nl'], '02000': ['nl'], '03000': ['fr', 'de'] };

/** Languages of a REFNIS regime (FN: French then Dutch...). */
export function regimeLangs(regime: string | null | undefined): Lang[] | null {
  if (!regime) return null;
  const map: Record<string, Lang> = { F: 'fr', N: 'nl', D: 'de' };
  const langs = [...regime.toUpperCase()].map((c) => map[c]).filter((l): l is Lang => l !== undefined);
  return langs.length > 0 ? langs : null;
}

/**
 * A Belgian proper name in its official language(s) (spec 2.2): "Bruxelles / Brussel" in
 * Brussels, the Dutch name in Flanders, the French (or German) name in Wallonia. A name missing
 * in the first language falls back to any published one.
 */
export function belgianName(names: Names, langs: Lang[]): string | null {
  const picked: string[] = [];
  for (const l of langs) {
    const n = names[l]?.trim();
    if (n && !picked.includes(n)) picked.push(n);
  }
  if (picked.length === 0) {
    for (const l of ['fr', 'nl', 'de'] as Lang[]) { const n = names[l]?.trim(); if (n) return n; }
    return null;
  }
  return picked.join(' / ');
}

export interface BeZonesOptions {
  input: string;
  /** REFNIS code list: names in French and Dutch, language regime, hierarchy of communes. */
  refnis?: string;
  /** For a commune boundary file (not Statbel's sectors): the property holding the NIS code. */
  codeProperty?: string;
  nameProperty?: string;
  encoding?: string;
  layer?: string;
  crs?: string;
}

const p = (props: Record<string, unknown>, name: string) => prop(props, name);

/**
 * The chain of zones of a Statbel statistical sector, widest first (spec 2.4): region, province
 * (none in Brussels-Capital), administrative arrondissement, commune, section, sector.
 */
export function sectorChain(props: Record<string, unknown>, refnis: Map<string, RefnisEntry> | null): TreeZone[] | string {
  const sector = p(props, 'CD_SECTOR');
  const commune = p(props, 'CD_MUNTY_REFNIS');
  if (!sector || !/^\d{5}[A-Z0-9]{1,4}[-0-9A-Z]*$/.test(sector)) return `CD_SECTOR ${sector ?? 'empty'} is not a statistical sector code`;
  if (!commune || !/^\d{5}$/.test(commune)) return `CD_MUNTY_REFNIS ${commune ?? 'empty'} is not a NIS code`;
  if (!sector.startsWith(commune)) return `sector ${sector} is not in commune ${commune}`;
  const section = p(props, 'CD_SUB_MUNTY') ?? sector.slice(0, 6);
  const region = p(props, 'CD_RGN_REFNIS') ?? regionOfCode(commune);
  const province = p(props, 'CD_PROV_REFNIS') ?? provinceOfCode(commune);
  const arrondissement = p(props, 'CD_DSTR_REFNIS') ?? `${commune.slice(0, 2)}000`;
  const r = refnis?.get(commune);
  const langs = regimeLangs(r?.regime) ?? REGION_LANGS[region] ?? ['fr', 'nl'];
  const wide = REGION_LANGS[region] ?? ['fr', 'nl'];
  const names = (stem: string): Names => ({ fr: p(props, `${stem}_FR`), nl: p(props, `${stem}_NL`), de: p(props, `${stem}_DE`) });
  const chain: TreeZone[] = [
    { level: 'administrative_area_level1', code: region, name: belgianName(names('TX_RGN_DESCR'), wide), parent_level: 'country', parent_code: 'BE' },
  ];
  if (province) chain.push({ level: 'administrative_area_level2', code: province, name: belgianName(names('TX_PROV_DESCR'), wide), parent_level: 'administrative_area_level1', parent_code: region });
  chain.push(
    { level: 'administrative_area_level3', code: arrondissement, name: belgianName(names('TX_ADM_DSTR_DESCR'), wide), parent_level: province ? 'administrative_area_level2' : 'administrative_area_level1', parent_code: province ?? region },
    { level: 'locality', code: commune, name: belgianName({ ...names('TX_MUNTY_DESCR'), ...(r ? { fr: p(props, 'TX_MUNTY_DESCR_FR') ?? r.fr, nl: p(props, 'TX_MUNTY_DESCR_NL') ?? r.nl } : {}) }, langs), parent_level: 'administrative_area_level3', parent_code: arrondissement },
    { level: 'sublocality_level1', code: section, name: belgianName(names('TX_SUB_MUNTY'), langs), parent_level: 'locality', parent_code: commune },
    { level: 'sublocality_level2', code: sector, name: belgianName(names('TX_SECTOR_DESCR'), langs), parent_level: 'sublocality_level1', parent_code: section },
  );
  return chain;
}

/** The chain of a commune known by its NIS code, its wider zones named from REFNIS. */
export function communeChain(code: string, fallbackName: string | null, refnis: Map<string, RefnisEntry>): TreeZone[] | string {
  if (!/^\d{5}$/.test(code)) return `${code} is not a NIS code`;
  const r = refnis.get(code);
  if (!r || r.level !== 'commune') return `NIS code ${code} is not a commune of the REFNIS list`;
  const region = r.region!;
  const wide = REGION_LANGS[region] ?? ['fr', 'nl'];
  const named = (c: string | null) => { const e = c ? refnis.get(c) : undefined; return e ? belgianName({ fr: e.fr, nl: e.nl }, wide) : null; };
  const chain: TreeZone[] = [{ level: 'administrative_area_level1', code: region, name: named(region), parent_level: 'country', parent_code: 'BE' }];
  if (r.province) chain.push({ level: 'administrative_area_level2', code: r.province, name: named(r.province), parent_level: 'administrative_area_level1', parent_code: region });
  chain.push(
    { level: 'administrative_area_level3', code: r.arrondissement!, name: named(r.arrondissement), parent_level: r.province ? 'administrative_area_level2' : 'administrative_area_level1', parent_code: r.province ?? region },
    { level: 'locality', code, name: belgianName({ fr: r.fr, nl: r.nl }, regimeLangs(r.regime) ?? wide) ?? fallbackName, parent_level: 'administrative_area_level3', parent_code: r.arrondissement },
  );
  return chain;
}

/**
 * Statbel zones: the statistical sectors file (GeoJSON or Shapefile, Lambert 72 or 2008) gives
 * every level from region to sector; or a commune boundary file with the REFNIS list gives
 * communes, arrondissements, provinces and regions. Wider outlines are unions of finer ones.
 */
export async function ingestBeZones(ctx: JobContext, o: BeZonesOptions): Promise<PartitionSummary[]> {
  const refnis = o.refnis ? await readRefnis(o.refnis) : null;
  if (o.codeProperty && !refnis) throw new Error('a commune boundary file needs the REFNIS list (--refnis) for its wider zones');
  const stem = basename(o.input).replace(/\.(geojson|json|shp|zip)$/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
  const partition = `statbel.${stem}`;
  // A commune file's zones are named and nested by the REFNIS list: that is the catalogued source.
  const source: Source = o.codeProperty ? refnisSource : statbelSectorsSource;
  const rejects = new Rejects(ctx.dataDir, 'be', 'zones', partition, ctx.maxRejectShare);
  await rejects.init();
  const tree = new ZoneTree();
  const progress = createProgress(`be.zones ${partition}`, null, ctx.progressOut);
  const projections = new Map<string, ReturnType<typeof toWgs84>>();
  let total = 0;
  try {
    for await (const { index, feature, crs, bytes } of readFeatures(o.input, { encoding: o.encoding, layer: o.layer })) {
      total++;
      const props = feature.properties ?? {};
      if (total === 1 && !o.codeProperty && !('CD_SECTOR' in props)) {
        throw new Error(`not a Statbel statistical sectors file (no CD_SECTOR); for a commune boundary file name its code with --code-property and give --refnis. Properties are: ${Object.keys(props).join(', ')}`);
      }
      const g = feature.geometry;
      if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) { rejects.add(index, `geometry is ${g ? g.type : 'empty'}, expected Polygon or MultiPolygon`, props); continue; }
      const chain = o.codeProperty
        ? communeChain(p(props, o.codeProperty) ?? '', o.nameProperty ? p(props, o.nameProperty) : null, refnis!)
        : sectorChain(props, refnis);
      if (typeof chain === 'string') { rejects.add(index, chain, props); continue; }
      const key = o.crs ?? crs ?? 'EPSG:4326';
      let fn = projections.get(key);
      if (!fn) projections.set(key, (fn = toWgs84(o.crs ?? crs)));
      tree.add(chain, reprojectGeometry(g, fn) as Polygon | MultiPolygon);
      progress.tick(total, bytes?.read, bytes?.total);
    }
    progress.done();
    if (total === 0) throw new Error(`no feature read from ${o.input}`);
    rejects.check(total);
    return await publishTree(ctx, 'be', 'be.zones', source, { path: o.input }, partition, tree, rejects);
  } catch (e) {
    await rejects.close();
    throw e;
  }
}
