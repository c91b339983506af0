import { z } from 'zod';
import type { Country } from '../../../schemas/common.ts';
import { INT4, queryInt, safeText } from '../../../schemas/inputs.ts';
import { envelope as envelopeSchema } from '../../../schemas/envelope.ts';
import { Zone, ZoneLevel } from '../../../schemas/zone.ts';
import type { Domain, Warning } from '../../../schemas/domain.ts';
import { ApiError, invalidParameter } from '../../core/errors.ts';
import type { KeyRecord } from '../../core/keys/keys.ts';
import { DOMAIN_MODULES, DOMAIN_REGISTRY, PendingDomain } from '../domains/index.ts';
import type { LocationRouteDeps } from '../domains/types.ts';
import { localeOf } from '../params.ts';
import { notIngestedDomain, refusedWarnings } from '../report.ts';
import { envelope } from '../../core/respond.ts';
import type { AnyRoute } from '../../core/routes.ts';
import { profileOf } from '../../../datasets/countries.ts';

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
const perPage = queryInt(INT4, { min: 1, max: 100 });
const page = queryInt(INT4, { min: 1 });

const ZoneParams = z.strictObject({
  level: ZoneLevel.describe('a zone level of spec 2.4'),
  code: safeText({ max: 40 }).describe('the code served in data.location.zones'),
});

/** Domains that serve a zone's own values (market, residents: spec 4.4), from the registry. */
const ZONE_DOMAINS = DOMAIN_MODULES.filter((m) => m.zoneSchema);

export const ZoneResponse = envelopeSchema(z.object({
  zone: Zone,
  parents: z.array(Zone).describe('wider zones, widest first'),
  geometry: z.record(z.string(), z.unknown()).nullable().describe('simplified outline as GeoJSON (WGS84) with geometry=true; null otherwise'),
}).extend(Object.fromEntries(ZONE_DOMAINS.map((m) => [m.id, z.union([m.zoneSchema!, PendingDomain]).optional()
  .describe(`the values published for this zone (include=${m.id}); never a wider zone's`)])) as unknown as Record<Exclude<Domain, 'location'>, z.ZodOptional<z.ZodType>>));

const include = z.string().trim().optional()
  .describe(`comma-separated domains whose values of the zone are served: ${ZONE_DOMAINS.map((m) => m.id).join(', ')}; default all those the country publishes`);

/** The domains asked by `include` (default: every zone domain the country publishes), checked against the key. */
function zoneInclusion(raw: string | undefined, country: Country, key: KeyRecord): { domains: Domain[]; refused: Domain[] } {
  const published = profileOf(country).domains;
  const known = ZONE_DOMAINS.map((m) => m.id);
  let asked: Domain[];
  if (raw === undefined || raw === '') asked = known.filter((d) => published.includes(d));
  else {
    asked = [];
    for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
      if (!known.includes(part as Domain)) throw invalidParameter('include', raw, `include takes ${known.join(', ')}; ${part} is not served by the zone routes`);
      if (!asked.includes(part as Domain)) asked.push(part as Domain);
    }
  }
  const allowed = (d: Domain) => !key.domains || key.domains.includes(d);
  return { domains: asked.filter(allowed), refused: asked.filter((d) => !allowed(d)) };
}
export const ZoneChildrenResponse = envelopeSchema(z.object({
  zone: Zone,
  children: z.array(Zone.extend({ geometry: z.record(z.string(), z.unknown()).nullable() })),
  pagination: z.object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int() }),
}));

interface ZoneRecord { level: ZoneLevel; code: string; name: string | null; parent_level: ZoneLevel | null; parent_code: string | null }

/** Zone routes of one country: a zone with its parents, and its children (spec 4.4). */
export function zoneRoutes(country: Country, deps: LocationRouteDeps): AnyRoute[] {
  const base = `/api/v1/${country}/zones/:level/:code`;
  const find = async (level: string, code: string): Promise<ZoneRecord | null> => {
    if (level === 'country') return code === profileOf(country).code ? { level: 'country', code, name: profileOf(country).name, parent_level: null, parent_code: null } : null;
    if (!deps.warehouse.has(country, 'zone_names')) return null;
    const rows = await deps.warehouse.query<ZoneRecord>(`SELECT level, code, name, parent_level, parent_code FROM ${country}_zone_names WHERE level = $1 AND code = $2`, [level, code]);
    return rows[0] ?? null;
  };
  const mustFind = async (level: string, code: string) => {
    const z = await find(level, code);
    if (!z) throw new ApiError('zone_not_found', `no zone ${level} ${code}`, { level, code });
    return z;
  };
  const outline = async (level: string, code: string) => {
    const rows = await deps.warehouse.query<{ g: string }>(`SELECT geometry_simplified AS g FROM ${country}_zones WHERE level = $1 AND code = $2 LIMIT 1`, [level, code]);
    return rows[0] ? JSON.parse(rows[0].g) as Record<string, unknown> : null;
  };
  const zoneOf = (r: ZoneRecord) => ({ level: r.level, code: r.code, name: r.name });
  const errors = ['invalid_parameter', 'unauthorized', 'country_not_allowed', 'zone_not_found', 'rate_limited', 'quota_exceeded', 'internal_error', 'maintenance'] as const;
  return [
    {
      method: 'GET', url: base, tags: [country], summary: 'A zone with its parents',
      description: 'data.zone (level, code, name), data.parents (widest first), the simplified outline with geometry=true, and the values published for this zone of each included domain (market, residents).',
      params: ZoneParams, query: z.strictObject({ include, geometry: bool.optional().describe('true serves the simplified outline as GeoJSON'), locale: z.enum(['fr', 'en']).optional().describe('accepted for symmetry: zone names are proper names, never translated') }),
      response: ZoneResponse, errors: [...errors], policy: { auth: true, country, units: 1 },
      handler: async ({ request, params, query }) => {
        const zone = await mustFind(params.level, params.code);
        const parents: ReturnType<typeof zoneOf>[] = [];
        let cur: ZoneRecord | null = zone;
        // Walk up the recorded parents; a loop in bad data stops at the tenth level.
        for (let i = 0; i < 10 && cur?.parent_level && cur.parent_code; i++) {
          cur = await find(cur.parent_level, cur.parent_code);
          if (cur) parents.unshift(zoneOf(cur));
        }
        if (zone.level !== 'country' && !parents.some((p) => p.level === 'country')) parents.unshift({ level: 'country', code: profileOf(country).code, name: profileOf(country).name });
        const geometry = query.geometry && zone.level !== 'country' ? await outline(zone.level, zone.code) : null;
        const locale = localeOf(request, query.locale);
        const inclusion = zoneInclusion(query.include, country, request.apiKey!);
        const warnings: Warning[] = refusedWarnings(inclusion.refused);
        const data: Record<string, unknown> = { zone: zoneOf(zone), parents, geometry };
        for (const d of inclusion.domains) {
          const resolve = DOMAIN_REGISTRY[d].zoneResolvers?.[country];
          const answer = !profileOf(country).domains.includes(d)
            ? { value: { status: 'not_covered', missing: {} }, warnings: [{ domain: d, code: 'not_covered', message: `domain ${d} has no published data in this country` }] }
            : resolve ? await resolve(deps, { country, zone: zoneOf(zone), locale }) : notIngestedDomain(d);
          data[d] = answer.value;
          warnings.push(...answer.warnings);
        }
        return envelope(request, deps.clock, data, warnings);
      },
    },
    {
      method: 'GET', url: `${base}/children`, tags: [country], summary: 'The child zones of a zone',
      description: 'Zones whose recorded parent is this zone (communes of a department, IRIS of a commune...), ordered by code.',
      params: ZoneParams,
      query: z.strictObject({ geometry: bool.optional(), page: page.optional(), per_page: perPage.optional(), locale: z.enum(['fr', 'en']).optional() }),
      response: ZoneChildrenResponse, errors: [...errors], policy: { auth: true, country, units: 1 },
      handler: async ({ request, params, query }) => {
        const zone = await mustFind(params.level, params.code);
        const p = query.page ?? 1;
        const size = query.per_page ?? 100;
        const where = 'parent_level = $1 AND parent_code = $2';
        const [{ total }] = await deps.warehouse.query<{ total: bigint }>(`SELECT count(*) AS total FROM ${country}_zone_names WHERE ${where}`, [zone.level, zone.code]) as [{ total: bigint }];
        const rows = await deps.warehouse.query<ZoneRecord>(
          `SELECT level, code, name, parent_level, parent_code FROM ${country}_zone_names WHERE ${where} ORDER BY code LIMIT ${size} OFFSET ${(p - 1) * size}`, [zone.level, zone.code],
        );
        const children = [];
        for (const r of rows) children.push({ ...zoneOf(r), geometry: query.geometry ? await outline(r.level, r.code) : null });
        return envelope(request, deps.clock, { zone: zoneOf(zone), children, pagination: { page: p, per_page: size, total: Number(total) } });
      },
    },
  ];
}
