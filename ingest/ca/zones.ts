import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fsaSource, montrealLimitsSource, rentalAreasSource, sdaSource } from '../../datasets/ca/sources.ts';
import type { JobContext, PartitionSummary } from '../core/job.ts';
import { prop } from '../core/ingest-zones.ts';
import { ingestTreeFile } from '../core/tree-file.ts';
import type { TreeZone } from '../core/zone-tree.ts';
import { readMun, type Municipality } from './mun.ts';

/** The province of Quebec: Statistics Canada's province code 24. */
export const QUEBEC = { code: '24', name: 'Québec' };
/** The City of Montréal's geographic code: its arrondissements' parent. */
const MONTREAL = '66023';

export interface CaZonesOptions {
  /** SDA delivery: a folder (or one .shp) holding regio_s, mrc_s, munic_s, arron_s. */
  sda?: string;
  /** MAMH's MUN.csv: municipalities' names, MRC (or equivalent territory) and administrative region. */
  mun?: string;
  /** Ville de Montréal's limadmin GeoJSON: arrondissements and villes liées of the agglomeration. */
  montreal?: string;
  /** Statistics Canada's forward sortation areas (lfsa000b21a_e.shp, EPSG:3347); Quebec's are kept. */
  fsa?: string;
  /** Rental-survey neighbourhoods (survey region and neighbourhood codes). */
  rental?: string;
  encoding?: string;
}

const SDA_LAYERS = ['regio_s', 'mrc_s', 'munic_s', 'arron_s'] as const;
type SdaLayer = (typeof SDA_LAYERS)[number];

function sdaLayers(input: string): Map<SdaLayer, string> {
  const files = statSync(input).isDirectory() ? readdirSync(input).map((f) => join(input, f)) : [input];
  const out = new Map<SdaLayer, string>();
  for (const f of files) {
    const base = basename(f).toLowerCase();
    for (const l of SDA_LAYERS) if (base === `${l}.shp`) out.set(l, f);
  }
  return out;
}

const p = prop;

/** The MRC (or equivalent territory) of a municipality as a zone, when MUN.csv knows it. */
function mrcZone(m: Municipality | undefined): TreeZone | null {
  if (!m?.mrc) return null;
  return { level: 'administrative_area_level3', code: m.mrc.code, name: m.mrc.name, parent_level: m.region ? 'administrative_area_level2' : null, parent_code: m.region?.code ?? null };
}

function municipalityZone(code: string, name: string | null, m: Municipality | undefined, mrcCode: string | null): TreeZone {
  const parent = m?.mrc?.code ?? mrcCode;
  return { level: 'locality', code, name: m?.name || name, parent_level: parent ? 'administrative_area_level3' : null, parent_code: parent };
}

/**
 * Quebec zones (spec 2.4): province and administrative regions (SDA regio_s), MRC and equivalent
 * territories (mrc_s, or the union of their municipalities when only MUN.csv says which), municipalities
 * by geographic code (munic_s or Montréal's limadmin, named from MUN.csv), arrondissements (arron_s or
 * limadmin), forward sortation areas (Statistics Canada) and rental-survey areas (code Q + survey
 * region + neighbourhood). Each input is one partition.
 */
export async function ingestCaZones(ctx: JobContext, o: CaZonesOptions): Promise<PartitionSummary[]> {
  const mun = o.mun ? await readMun(o.mun) : null;
  const out: PartitionSummary[] = [];
  const layers = o.sda ? sdaLayers(o.sda) : new Map<SdaLayer, string>();
  if (o.sda && layers.size === 0) throw new Error(`no SDA layer (${SDA_LAYERS.join(', ')}) found in ${o.sda}`);
  // Without the MRC layer, an MRC's outline is the union of its municipalities' (MUN.csv says which).
  const deriveMrc = !layers.has('mrc_s') && mun !== null;
  const job = 'ca.zones';
  const common = { country: 'ca' as const, job, encoding: o.encoding };

  const regions = layers.get('regio_s');
  if (regions) out.push(...await ingestTreeFile(ctx, {
    ...common, source: sdaSource, partition: 'sda.regio_s', path: regions,
    toChain: (props) => {
      const code = p(props, 'RES_CO_REG');
      if (!code || !/^\d{2}$/.test(code)) return `RES_CO_REG ${code ?? 'empty'} is not a region code`;
      return [
        { level: 'administrative_area_level1', ...QUEBEC, parent_level: 'country', parent_code: 'CA' },
        { level: 'administrative_area_level2', code, name: p(props, 'RES_NM_REG'), parent_level: 'administrative_area_level1', parent_code: QUEBEC.code },
      ];
    },
  }));
  const mrcs = layers.get('mrc_s');
  if (mrcs) out.push(...await ingestTreeFile(ctx, {
    ...common, source: sdaSource, partition: 'sda.mrc_s', path: mrcs,
    toChain: (props) => {
      const code = p(props, 'MRS_CO_MRC');
      if (!code) return 'MRS_CO_MRC empty';
      const region = p(props, 'MRS_CO_REG');
      return [{ level: 'administrative_area_level3', code, name: p(props, 'MRS_NM_MRC'), parent_level: region ? 'administrative_area_level2' : null, parent_code: region }];
    },
  }));
  const municipalities = layers.get('munic_s');
  if (municipalities) out.push(...await ingestTreeFile(ctx, {
    ...common, source: sdaSource, partition: 'sda.munic_s', path: municipalities,
    toChain: (props) => {
      const code = p(props, 'MUS_CO_GEO');
      if (!code || !/^\d{5}$/.test(code)) return `MUS_CO_GEO ${code ?? 'empty'} is not a geographic code`;
      const m = mun?.get(code);
      if (mun && !m) return `geographic code ${code} is not in MUN.csv`;
      const mrc = deriveMrc ? mrcZone(m) : null;
      const zone = municipalityZone(code, p(props, 'MUS_NM_MUN'), m, p(props, 'MUS_CO_MRC'));
      return mrc ? [mrc, zone] : [zone];
    },
  }));
  const arrondissements = layers.get('arron_s');
  if (arrondissements) out.push(...await ingestTreeFile(ctx, {
    ...common, source: sdaSource, partition: 'sda.arron_s', path: arrondissements,
    toChain: (props) => {
      const code = p(props, 'ARS_CO_ARR');
      const parent = p(props, 'ARS_CO_MUN');
      if (!code) return 'ARS_CO_ARR empty';
      return [{ level: 'sublocality_level1', code, name: p(props, 'ARS_NM_ARR'), parent_level: parent ? 'locality' : null, parent_code: parent }];
    },
  }));

  if (o.montreal) {
    const montreal = mun?.get(MONTREAL);
    out.push(...await ingestTreeFile(ctx, {
      ...common, source: montrealLimitsSource, partition: 'montreal.limadmin', path: o.montreal,
      toChain: (props) => {
        const code = p(props, 'CODEMAMROT') ?? p(props, 'CODEMAMH');
        const type = p(props, 'TYPE');
        if (!code) return 'CODEMAMROT empty';
        if (type === 'Arrondissement') {
          // The City of Montréal is the union of its arrondissements.
          const city = municipalityZone(MONTREAL, 'Montréal', montreal, null);
          const mrc = mrcZone(montreal);
          const arr: TreeZone = { level: 'sublocality_level1', code, name: p(props, 'NOM'), parent_level: 'locality', parent_code: MONTREAL };
          return mrc ? [mrc, city, arr] : [city, arr];
        }
        if (type === 'Ville liée' || type === 'Ville liee') {
          const m = mun?.get(code);
          const mrc = mrcZone(m ?? montreal);
          const zone = municipalityZone(code, p(props, 'NOM'), m, mrc?.code ?? null);
          return mrc ? [mrc, zone] : [zone];
        }
        return `TYPE ${type ?? 'empty'} is neither Arrondissement nor Ville liée`;
      },
    }));
  }

  if (o.fsa) out.push(...await ingestTreeFile(ctx, {
    ...common, source: fsaSource, partition: 'statcan.fsa', path: o.fsa,
    toChain: (props) => {
      const code = p(props, 'CFSAUID');
      // The national file: only Quebec's areas are served (PRUID 24).
      if (p(props, 'PRUID') !== QUEBEC.code) return null;
      if (!code || !/^[A-Z]\d[A-Z]$/.test(code)) return `CFSAUID ${code ?? 'empty'} is not a forward sortation area`;
      return [{ level: 'postal_code_prefix', code, name: null, parent_level: 'administrative_area_level1', parent_code: QUEBEC.code }];
    },
  }));

  if (o.rental) out.push(...await ingestTreeFile(ctx, {
    ...common, source: rentalAreasSource, partition: 'rental-areas', path: o.rental,
    toChain: (props) => {
      const region = p(props, 'REGION_ENQ');
      const neighbourhood = p(props, 'QUARTIER');
      if (!region || !/^\d{1,3}$/.test(region)) return `REGION_ENQ ${region ?? 'empty'} is not a survey region code`;
      if (!neighbourhood || !/^\d{1,3}$/.test(neighbourhood)) return `QUARTIER ${neighbourhood ?? 'empty'} is not a neighbourhood code`;
      // Spec 2.4: the service's code, letter Q, then survey region, then neighbourhood (two digits each).
      const code = `Q${region.padStart(2, '0')}${neighbourhood.padStart(2, '0')}`;
      return [{ level: 'rental_survey_area', code, name: p(props, 'NOM_QUARTI') ?? p(props, 'NOM_QUARTIER'), parent_level: 'administrative_area_level1', parent_code: QUEBEC.code }];
    },
  }));
  if (out.length === 0) throw new Error('nothing to ingest: give --sda, --montreal, --fsa or --rental');
  return out;
}

export function requireFiles(...paths: (string | undefined)[]): void {
  for (const f of paths) if (f !== undefined && !existsSync(f)) throw new Error(`input not found: ${f}`);
}
