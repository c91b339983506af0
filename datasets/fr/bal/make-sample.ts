/**
 * Writes the BAL sample (npx tsx datasets/fr/bal/make-sample.ts): a fictional commune 54999,
 * generated rows, one file in BAL 1.3 and one in BAL 1.4. Not the producer's data.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import proj4 from 'proj4';

proj4.defs('EPSG:2154', '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs');
const COMMON = ['cle_interop', 'commune_insee', 'commune_nom', 'commune_deleguee_insee', 'commune_deleguee_nom', 'voie_nom', 'lieudit_complement_nom', 'numero', 'suffixe', 'position', 'x', 'y', 'long', 'lat', 'cad_parcelles', 'source', 'date_der_maj', 'certification_commune'];
const V13 = ['uid_adresse', ...COMMON];
const V14 = ['id_ban_commune', 'id_ban_toponyme', 'id_ban_adresse', ...COMMON];

interface Row { voie: string; code: string; numero: number; suffixe?: string; lng: number; lat: number; position?: string; lieudit?: string }
const ROWS: Row[] = [
  { voie: 'Rue Joffre', code: '0200', numero: 1, lng: 5.9001, lat: 49.2001 },
  { voie: 'Rue Joffre', code: '0200', numero: 3, lng: 5.9003, lat: 49.2002 },
  { voie: 'Rue Joffre', code: '0200', numero: 3, suffixe: 'bis', lng: 5.9004, lat: 49.2002, position: 'entrée' },
  { voie: 'Impasse du 8 Mai 1945', code: '0210', numero: 2, lng: 5.9012, lat: 49.2010 },
  { voie: 'Place du 19 Mars 1962', code: '0220', numero: 4, suffixe: 'a', lng: 5.9020, lat: 49.2015 },
  { voie: 'Le Moulin', code: 'b001', numero: 99999, lng: 5.9030, lat: 49.2030, position: 'segment' },
  { voie: 'Route de Briey', code: '0230', numero: 12, lng: 5.9040, lat: 49.2020, lieudit: 'La Côte' },
];

function line(r: Row, version: '1.3' | '1.4'): string {
  const [x, y] = proj4('EPSG:4326', 'EPSG:2154', [r.lng, r.lat]) as [number, number];
  const cle = `54999_${r.code}_${String(r.numero).padStart(5, '0')}${r.suffixe ? `_${r.suffixe}` : ''}`;
  const common = [cle, '54999', 'Exemple-sur-Orne', '', '', r.voie, r.lieudit ?? '', String(r.numero), r.suffixe ?? '', r.position ?? 'entrée',
    x.toFixed(2), y.toFixed(2), r.lng.toFixed(6), r.lat.toFixed(6), '54999000AB0012', 'commune', '2026-03-02', '1'];
  return (version === '1.3' ? ['', ...common] : ['0fe0b4ea-7c6a-4b5e-9a55-000000054999', '', '', ...common]).join(';');
}

const dir = import.meta.dirname;
writeFileSync(join(dir, 'bal-1.3-54999.csv'), [V13.join(';'), ...ROWS.slice(0, 4).map((r) => line(r, '1.3'))].join('\r\n') + '\r\n');
writeFileSync(join(dir, 'bal-1.4-54999.csv'), [V14.join(';'), ...ROWS.slice(3).map((r) => line(r, '1.4'))].join('\r\n') + '\r\n');
