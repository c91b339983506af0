import type { Formatted } from '../../../schemas/listing/common.ts';
import type { ChangeContext, VersionChange } from './change.ts';

/** 3.1 -> 3.0 (spec 2.1): every formatted surface is a plain string, in the path's locale. */
const flat = (f: Formatted | null, ctx: ChangeContext) => (f === null ? null : f[ctx.locale]);

function surfaces(p: any, ctx: ChangeContext): any {
  const out = {
    ...p,
    area_formatted: flat(p.area_formatted, ctx),
    area_converted: Object.fromEntries(
      Object.entries(p.area_converted as Record<string, { area: number | null; area_formatted: Formatted | null }>).map(([unit, v]) => [unit, { ...v, area_formatted: flat(v.area_formatted, ctx) }]),
    ),
  };
  if (p.surface_areas) {
    const formatted = p.surface_areas.formatted as Record<string, Formatted | null>;
    out.surface_areas = { ...p.surface_areas, formatted: Object.fromEntries(Object.entries(formatted).map(([k, v]) => [k, flat(v, ctx)])) };
  }
  if (p.rooms_details) out.rooms_details = p.rooms_details.map((r: any) => ({ ...r, area_formatted: flat(r.area_formatted, ctx) }));
  if (p.lot_details) out.lot_details = p.lot_details.map((l: any) => ({ ...l, area_formatted: flat(l.area_formatted, ctx) }));
  return out;
}

export const formattedSurfacesAsStrings: VersionChange = {
  description: 'Formatted surfaces (area_formatted, area_converted.*.area_formatted, surface_areas.formatted.*, rooms_details[].area_formatted, lot_details[].area_formatted) are strings in the locale of the path, not objects per locale.',
  responses: {
    'property.page': (body, ctx) => ({ ...body, data: body.data.map((p: any) => surfaces(p, ctx)) }),
    'property.one': (body, ctx) => ({ ...body, data: surfaces(body.data, ctx) }),
  },
};
