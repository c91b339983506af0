import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import proj4 from 'proj4';
import type { JobContext } from '../../ingest/core/job.ts';
import { ingestBanFile } from '../../ingest/fr/ban.ts';
import { ingestGenericZones } from '../../ingest/generic/zones.ts';
import type { ZoneLevel } from '../../schemas/zone.ts';

proj4.defs('EPSG:2154', '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs');

export const BAN_HEADER = 'id;id_fantoir;numero;rep;nom_voie;code_postal;code_insee;nom_commune;code_insee_ancienne_commune;nom_ancienne_commune;x;y;lon;lat;type_position;alias;nom_ld;libelle_acheminement;nom_afnor;source_position;source_nom_voie;certification_commune;cad_parcelles';

/** One BAN line in the published layout, x/y computed in Lambert-93 from lon/lat. */
export function banLine(a: { insee: string; fantoir: string; numero: number; rep?: string; voie: string; cp: string; commune: string; lon: number; lat: number; parcelle?: string }): string {
  const [x, y] = proj4('EPSG:4326', 'EPSG:2154', [a.lon, a.lat]) as [number, number];
  const id = `${a.insee}_${a.fantoir}_${String(a.numero).padStart(5, '0')}${a.rep ? `_${a.rep}` : ''}`;
  const afnor = a.voie.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
  return [id, `${a.insee}_${a.fantoir}`, a.numero, a.rep ?? '', a.voie, a.cp, a.insee, a.commune, '', '', x.toFixed(2), y.toFixed(2),
    a.lon.toFixed(6), a.lat.toFixed(6), 'entrée', '', '', a.commune.startsWith('Paris') ? 'PARIS' : a.commune.toUpperCase(), afnor, 'commune', 'commune', '1', a.parcelle ?? ''].join(';');
}

/** Rectangle [lng, lat] polygon. */
export function box(minLng: number, minLat: number, maxLng: number, maxLat: number) {
  return { type: 'Polygon' as const, coordinates: [[[minLng, minLat], [maxLng, minLat], [maxLng, maxLat], [minLng, maxLat], [minLng, minLat]]] };
}

/** The shared border of the fixture arrondissements 75103 (west) and 75111 (east). */
export const BORDER_LNG = 2.368;
/** The shared border of the fixture communes Abzac (south) and Coutras (north). */
export const BORDER_LAT = 45.04;

const ZONES: { level: ZoneLevel; features: { code: string; name: string; parent?: string; geometry: ReturnType<typeof box> }[] }[] = [
  { level: 'administrative_area_level1', features: [
    { code: '11', name: 'Île-de-France', geometry: box(2.2, 48.8, 2.5, 48.95) },
    { code: '75', name: 'Nouvelle-Aquitaine', geometry: box(-0.3, 44.9, 0.2, 45.2) },
  ] },
  { level: 'administrative_area_level2', features: [
    { code: '75', name: 'Paris', parent: '11', geometry: box(2.25, 48.81, 2.42, 48.91) },
    { code: '33', name: 'Gironde', parent: '75', geometry: box(-0.3, 44.9, 0.2, 45.2) },
  ] },
  { level: 'locality', features: [
    { code: '75056', name: 'Paris', parent: '75', geometry: box(2.25, 48.81, 2.42, 48.91) },
    { code: '33001', name: 'Abzac', parent: '33', geometry: box(-0.15, 44.99, -0.09, BORDER_LAT) },
    { code: '33138', name: 'Coutras', parent: '33', geometry: box(-0.15, BORDER_LAT, -0.09, 45.08) },
  ] },
  { level: 'sublocality_level1', features: [
    { code: '75103', name: 'Paris 3e Arrondissement', parent: '75056', geometry: box(2.350, 48.858, BORDER_LNG, 48.867) },
    { code: '75111', name: 'Paris 11e Arrondissement', parent: '75056', geometry: box(BORDER_LNG, 48.850, 2.390, 48.867) },
  ] },
  { level: 'sublocality_level2', features: [
    { code: '751030101', name: 'Enfants Rouges 1', parent: '75103', geometry: box(2.350, 48.858, BORDER_LNG, 48.867) },
    { code: '751110201', name: 'Folie Méricourt 1', parent: '75111', geometry: box(BORDER_LNG, 48.850, 2.390, 48.867) },
  ] },
];

export const BAN_ROWS = [
  { insee: '75103', fantoir: '1205', numero: 12, voie: 'Rue de Bretagne', cp: '75003', commune: 'Paris 3e Arrondissement', lon: 2.36195, lat: 48.86305, parcelle: '75103000AK0034' },
  { insee: '75103', fantoir: '1205', numero: 12, rep: 'bis', voie: 'Rue de Bretagne', cp: '75003', commune: 'Paris 3e Arrondissement', lon: 2.36205, lat: 48.86309 },
  { insee: '75103', fantoir: '1205', numero: 14, voie: 'Rue de Bretagne', cp: '75003', commune: 'Paris 3e Arrondissement', lon: 2.36225, lat: 48.86316 },
  { insee: '75103', fantoir: '0716', numero: 2, voie: 'Boulevard Beaumarchais', cp: '75003', commune: 'Paris 3e Arrondissement', lon: 2.36790, lat: 48.85540 + 0.004 },
  { insee: '75111', fantoir: '0716', numero: 1, voie: 'Boulevard Beaumarchais', cp: '75011', commune: 'Paris 11e Arrondissement', lon: 2.36810, lat: 48.85950 },
  { insee: '75111', fantoir: '8304', numero: 30, voie: 'Rue de la Roquette', cp: '75011', commune: 'Paris 11e Arrondissement', lon: 2.37320, lat: 48.85490 },
  { insee: '33001', fantoir: '0120', numero: 3, voie: 'Route de Coutras', cp: '33230', commune: 'Abzac', lon: -0.12910, lat: 45.01360 },
  { insee: '33001', fantoir: '0240', numero: 1, voie: 'Rue de la Mairie', cp: '33230', commune: 'Abzac', lon: -0.12640, lat: 45.01000 },
  { insee: '33138', fantoir: '0120', numero: 5, voie: 'Rue de la Mairie', cp: '33230', commune: 'Coutras', lon: -0.12800, lat: 45.04300 },
];

export function silentContext(dataDir: string): JobContext {
  const devNull = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
  return { dataDir, maxRejectShare: 0.01, now: () => new Date('2026-11-20T10:00:00Z'), log: () => {}, progressOut: devNull };
}

/** A data folder with the fixture zones and addresses ingested through the real jobs. */
export async function buildFixtureData(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'lds-fixture-'));
  const dataDir = join(root, 'data');
  const ctx = silentContext(dataDir);
  for (const z of ZONES) {
    const file = join(root, `${z.level}.geojson`);
    await writeFile(file, JSON.stringify({
      type: 'FeatureCollection',
      features: z.features.map((f) => ({ type: 'Feature', properties: { code: f.code, nom: f.name, parent: f.parent ?? null }, geometry: f.geometry })),
    }));
    await ingestGenericZones(ctx, { country: 'fr', level: z.level, input: file, codeProperty: 'code', nameProperty: 'nom', parentProperty: 'parent' });
  }
  const ban = join(root, 'adresses-fixture.csv');
  await writeFile(ban, `${BAN_HEADER}\n${BAN_ROWS.map(banLine).join('\n')}\n`);
  await ingestBanFile(ctx, { path: ban });
  return dataDir;
}
