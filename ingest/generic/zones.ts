import { basename } from 'node:path';
import type { Country } from '../../schemas/common.ts';
import { ZoneLevel, ZONE_LEVEL_ORDER } from '../../schemas/zone.ts';
import type { Source } from '../../datasets/source.ts';
import type { JobContext, PartitionSummary } from '../core/job.ts';
import { ingestZoneFile, prop } from '../core/ingest-zones.ts';

export interface GenericZonesOptions {
  country: Country;
  level: ZoneLevel;
  input: string;
  codeProperty: string;
  nameProperty?: string;
  parentProperty?: string;
  /** Level of the parent codes; default the next wider level that is used in the country. */
  parentLevel?: ZoneLevel;
  encoding?: string;
  layer?: string;
  crs?: string;
}

/** Level of the parent by default: the nearest wider level (administrative_area_level3 is skipped in France). */
export function defaultParentLevel(country: Country, level: ZoneLevel): ZoneLevel | null {
  const i = ZONE_LEVEL_ORDER.indexOf(level);
  for (let j = i - 1; j >= 0; j--) {
    const l = ZONE_LEVEL_ORDER[j]!;
    if (country === 'fr' && l === 'administrative_area_level3') continue;
    if (l === 'rental_survey_area' || l === 'postal_code_prefix') continue;
    return l;
  }
  return null;
}

/** Boundary files from any producer (GeoJSON or Shapefile, any CRS), mapped to a level by named properties. */
export async function ingestGenericZones(ctx: JobContext, o: GenericZonesOptions): Promise<PartitionSummary[]> {
  const parentLevel = o.parentProperty ? (o.parentLevel ?? defaultParentLevel(o.country, o.level)) : null;
  const stem = basename(o.input).replace(/\.(geojson|json|shp|zip)$/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
  const source: Source = {
    id: `${o.country}.zones.${stem}`, country: o.country, name: basename(o.input), producer: 'given at ingest', licence: 'see producer',
    licence_url: '', attribution: '', url: '', download_url: null, format: /\.(geojson|json)$/i.test(o.input) ? 'geojson' : 'shapefile',
    crs: o.crs ?? 'declared by the file', encoding: o.encoding ?? 'declared by the file', update_frequency: 'irregular', tables: ['zones', 'zone_cells'], sample: '',
  };
  let seenCode = false;
  return ingestZoneFile(ctx, {
    country: o.country, job: 'zones', source, partition: `zones.${o.level}.${stem}`, input: { path: o.input },
    layer: o.layer, encoding: o.encoding, crs: o.crs,
    toZone: (p) => {
      const code = prop(p, o.codeProperty);
      if (!code) {
        if (!seenCode && !(o.codeProperty in p)) throw new Error(`property ${o.codeProperty} not found; properties are: ${Object.keys(p).join(', ')}`);
        return `${o.codeProperty} empty`;
      }
      seenCode = true;
      const parent = o.parentProperty ? prop(p, o.parentProperty) : null;
      return {
        level: o.level, code, name: o.nameProperty ? prop(p, o.nameProperty) : null,
        parent_level: parent ? parentLevel : null, parent_code: parent,
      };
    },
  });
}

export { ZoneLevel };
