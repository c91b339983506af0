import { z } from 'zod';
import { toWgs84 } from '../core/reproject.ts';

/** Columns of BAN's adresses-XX.csv, in the published order. */
export const BAN_HEADER = [
  'id', 'id_fantoir', 'numero', 'rep', 'nom_voie', 'code_postal', 'code_insee', 'nom_commune', 'code_insee_ancienne_commune',
  'nom_ancienne_commune', 'x', 'y', 'lon', 'lat', 'type_position', 'alias', 'nom_ld', 'libelle_acheminement', 'nom_afnor',
  'source_position', 'source_nom_voie', 'certification_commune', 'cad_parcelles',
] as const;

const num = (s: string) => (s === '' ? null : Number(s));
const optional = (s: string) => (s === '' ? null : s);

/** One BAN row as published: strings in, typed values out, refused with a reason when malformed. */
export const BanRow = z.object({
  id: z.string().min(1, 'empty id'),
  numero: z.string().regex(/^\d{1,5}$/, 'numero is not a number').transform(Number),
  rep: z.string().transform(optional),
  nom_voie: z.string().min(1, 'empty nom_voie'),
  code_postal: z.string().regex(/^(\d{5})?$/, 'code_postal is not 5 digits').transform(optional),
  code_insee: z.string().regex(/^(\d{5}|2[AB]\d{3})$/, 'code_insee is not an INSEE code'),
  nom_commune: z.string().min(1, 'empty nom_commune'),
  x: z.string().transform(num).refine((v) => v === null || Number.isFinite(v), 'x is not a number'),
  y: z.string().transform(num).refine((v) => v === null || Number.isFinite(v), 'y is not a number'),
  lon: z.string().transform(num).refine((v) => v === null || (Number.isFinite(v) && v >= -180 && v <= 180), 'lon is not a longitude'),
  lat: z.string().transform(num).refine((v) => v === null || (Number.isFinite(v) && v >= -90 && v <= 90), 'lat is not a latitude'),
  type_position: z.string().transform(optional),
  cad_parcelles: z.string().transform(optional),
});
export type BanRow = z.infer<typeof BanRow>;

/** Projected system of BAN's x/y columns by department: Lambert-93 in metropolitan France, local UTM overseas. */
export function banCrs(codeInsee: string): string {
  const dep = codeInsee.slice(0, 3);
  if (dep === '971' || dep === '972') return 'EPSG:5490';
  if (dep === '973') return 'EPSG:2972';
  if (dep === '974') return 'EPSG:2975';
  if (dep === '976') return 'EPSG:4471';
  return 'EPSG:2154';
}

/**
 * WGS84 position of a row: lon/lat as published, else x/y reprojected from the department's
 * system; or the reason there is none.
 */
export function banPosition(r: BanRow): { lng: number; lat: number } | string {
  if (r.lon !== null && r.lat !== null) return { lng: r.lon, lat: r.lat };
  if (r.x !== null && r.y !== null) {
    const [lng, lat] = toWgs84(banCrs(r.code_insee))([r.x, r.y]);
    return { lng, lat };
  }
  return 'no position (x/y and lon/lat empty)';
}
