import { labelOf, type Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import { ABC_ZONES, TENSE_ZONE_CLASSES, type Regulation } from '../../../../schemas/market.ts';
import type { Zone, ZoneLevel, Zones } from '../../../../schemas/zone.ts';
import { finestValue, UpdatedOnDates, valuesOfZones, type ZoneValue } from '../../kinds/zone-values.ts';
import type { MarketDeps } from './fr.ts';

/** The lists name communes (an arrondissement where one is listed on its own): the arrondissement, else the commune. */
const LEVELS: ZoneLevel[] = ['sublocality_level1', 'locality'];
const TABLE = 'zone_values';
const ABC = 'regulation.abc_zone', TENSE = 'regulation.tense_zone', RENT = 'regulation.rent_control';
const SOURCES = { abc: 'fr.abc-zoning', tense: 'fr.tlv-zoning', rent: 'fr.rent-control' } as const;
const TENSE_CLASSES = { 1: 'tense', 2: 'tense_touristic', 3: 'not_tense' } as const satisfies Record<number, keyof typeof TENSE_ZONE_CLASSES>;

/**
 * market.regulation of spec 2.9 at a point (fr.housing-zones): the ABC zone and the TLV class of
 * its commune, and rent control where the commune is under it today. Null, with the reason, when
 * the ABC or TLV list is not ingested or does not name the commune.
 */
export function regulationAt(deps: MarketDeps, zonesOfPoint: Zones, locale: Locale): Promise<{ value: Regulation | null; missing: Missing; warnings: Warning[] }> {
  return regulationOver(deps, LEVELS.map((l) => zonesOfPoint[l]).filter((z): z is Zone => z !== null), locale);
}

/** A zone route: the lists' values of that commune (or arrondissement) only; another level has none. */
export function regulationOfZone(deps: MarketDeps, zone: Zone, locale: Locale): Promise<{ value: Regulation | null; missing: Missing; warnings: Warning[] }> {
  if (!LEVELS.includes(zone.level as ZoneLevel)) return Promise.resolve({ value: null, missing: { regulation: 'not_applicable' }, warnings: [] });
  return regulationOver(deps, [zone], locale);
}

async function regulationOver(deps: MarketDeps, zones: Zone[], locale: Locale): Promise<{ value: Regulation | null; missing: Missing; warnings: Warning[] }> {
  const rows = deps.warehouse.has('fr', TABLE) ? await valuesOfZones(deps.warehouse, 'fr', TABLE, zones, [ABC, TENSE, RENT]) : [];
  const manifest = await deps.manifests.get('fr');
  const ingested = (source: string) => manifest.partitions.some((p) => p.table === TABLE && p.sources.some((s) => s.id === source));
  const missing: Missing = {};
  const warnings: Warning[] = [];
  const lists = { abc: ingested(SOURCES.abc), tense: ingested(SOURCES.tense), rent: ingested(SOURCES.rent) };
  const notIngested = (Object.keys(lists) as (keyof typeof lists)[]).filter((k) => !lists[k]);
  if (notIngested.length > 0) {
    warnings.push({ domain: 'market', code: 'data_unavailable', message: `regulation: ${notIngested.map((k) => SOURCES[k]).join(', ')} not ingested on this service yet (fr.housing-zones)` });
  }
  if (!lists.abc || !lists.tense) return { value: null, missing: { regulation: 'unavailable' }, warnings };
  const abc = finestValue(rows, zones, ABC).value;
  const tense = finestValue(rows, zones, TENSE).value;
  // A commune the ministry's lists do not name (a new commune, overseas collectivities).
  if (!abc || !tense) return { value: null, missing: { regulation: 'not_found' }, warnings };

  const now = deps.clock.now();
  const today = now.toISOString().slice(0, 10);
  const used: ZoneValue[] = [abc, tense];
  let rentControl: Regulation['rent_control'] = null;
  if (!lists.rent) missing['regulation.rent_control'] = 'unavailable';
  else {
    const rent = finestValue(rows, zones, RENT).value;
    // Not on the list, or its experiment not begun or over: rent control does not apply there today.
    if (!rent || (rent.period_start !== null && rent.period_start > today) || (rent.period_end !== null && rent.period_end < today)) missing['regulation.rent_control'] = 'not_covered';
    else {
      used.push(rent);
      const zone = zones.find((z) => z.level === rent.level && z.code === rent.code)!;
      rentControl = { scope: rent.value === 2 ? 'part_of_commune' : 'commune', since: rent.period_start!, until: rent.period_end, zone };
    }
  }
  const cls = TENSE_CLASSES[tense.value as keyof typeof TENSE_CLASSES];
  const zone = ABC_ZONES[abc.value! - 1];
  if (!cls || !zone) return { value: null, missing: { regulation: 'not_found' }, warnings };
  const dates = new UpdatedOnDates(manifest, TABLE, now);
  const updatedOn = used.map((r) => dates.of(r, 'regulation')).sort().at(-1)!;
  warnings.push(...dates.warnings('market'));
  return {
    value: {
      tense_zone: cls !== 'not_tense', tense_zone_class: cls, tense_zone_label: labelOf(TENSE_ZONE_CLASSES, cls, locale),
      rent_control: rentControl, abc_zone: zone,
      updated_on: updatedOn,
    },
    missing, warnings,
  };
}
