import type { Country, Locale } from '../../../../schemas/common.ts';
import type { Missing, Warning } from '../../../../schemas/domain.ts';
import type { Zone, ZoneLevel } from '../../../../schemas/zone.ts';
import { finestValue, measureOf, UpdatedOnDates, valuesOfZones } from '../../kinds/zone-values.ts';
import type { LocationRouteDeps, Resolved, Resolver, ZoneResolver } from '../types.ts';
import { definitionOf } from './fields.ts';

/** A field of a country's residents: the zone-values indicator behind it, or the source still to ingest. */
export type ResidentsField = { path: string; indicator: string } | { path: string; pending: string };

export interface ResidentsSpec {
  country: Country;
  /** Zone levels a figure may describe, finest first (spec 2.5: the finest zone with a reliable value). */
  levels: ZoneLevel[];
  fields: ResidentsField[];
}

const TABLE = 'zone_values';

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) { target[head!] = value; return; }
  const next = (target[head!] ??= {}) as Record<string, unknown>;
  setPath(next, rest.join('.'), value);
}

/**
 * data.residents over the given zones, finest first: each figure at the finest zone with a
 * reliable value; a zone route passes its one zone, so a zone never gets a wider zone's value.
 * Every field is present, null with its reason when there is no value (spec 2.2).
 */
async function residentsOver(deps: LocationRouteDeps, spec: ResidentsSpec, zones: Zone[], locale: Locale): Promise<Resolved> {
  const value: Record<string, unknown> = { status: 'ok' };
  const missing: Missing = {};
  const warnings: Warning[] = [];
  for (const f of spec.fields) setPath(value, f.path, null);
  value.missing = missing;
  const pending = spec.fields.filter((f): f is { path: string; pending: string } => 'pending' in f);
  const served = spec.fields.filter((f): f is { path: string; indicator: string } => 'indicator' in f);
  for (const f of pending) missing[f.path] = 'unavailable';
  for (const source of [...new Set(pending.map((f) => f.pending))]) {
    warnings.push({ domain: 'residents', code: 'data_unavailable', message: `${pending.filter((f) => f.pending === source).map((f) => f.path).join(', ')}: ${source} is not ingested yet` });
  }
  if (!deps.warehouse.has(spec.country, TABLE)) {
    for (const f of served) missing[f.path] = 'unavailable';
    warnings.push({ domain: 'residents', code: 'data_unavailable', message: `${served.map((f) => f.path).join(', ')}: their sources are not ingested on this service yet` });
    return { value: { ...value, status: 'unavailable' }, warnings };
  }
  const rows = await valuesOfZones(deps.warehouse, spec.country, TABLE, zones, served.map((f) => f.indicator));
  const manifest = await deps.manifests.get(spec.country);
  const now = deps.clock.now();
  const dates = new UpdatedOnDates(manifest, TABLE, now);
  for (const f of served) {
    const chosen = finestValue(rows, zones, f.indicator);
    if (!chosen.value) { missing[f.path] = chosen.reason; continue; }
    const zone = zones.find((z) => z.level === chosen.value.level && z.code === chosen.value.code)!;
    const updated = dates.of(chosen.value, f.path);
    setPath(value, f.path, measureOf(chosen.value, zone, definitionOf(`residents.${f.path}`, locale, spec.country), updated, now));
  }
  warnings.push(...dates.warnings('residents'));
  // Partial while some fields wait for their source (spec 2.5: fields null, meta.warnings names them).
  if (pending.length > 0) value.status = 'partial';
  return { value: value as Resolved['value'], warnings };
}

/** The report's resolver and the zone route's resolver of a country's residents. */
export function residentsResolvers(spec: ResidentsSpec): { report: Resolver; zone: ZoneResolver } {
  return {
    report: (deps, ctx) => residentsOver(deps, spec, spec.levels.map((l) => ctx.location.zones[l]).filter((z): z is Zone => z !== null), ctx.locale),
    zone: (deps, ctx) => residentsOver(deps, spec, [ctx.zone], ctx.locale),
  };
}
