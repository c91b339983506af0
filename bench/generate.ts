import { createWriteStream } from 'node:fs';
import proj4 from 'proj4';

proj4.defs('EPSG:2154', '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs');
const toL93 = proj4('EPSG:4326', 'EPSG:2154');

export const BAN_HEADER = 'id;id_fantoir;numero;rep;nom_voie;code_postal;code_insee;nom_commune;code_insee_ancienne_commune;nom_ancienne_commune;x;y;lon;lat;type_position;alias;nom_ld;libelle_acheminement;nom_afnor;source_position;source_nom_voie;certification_commune;cad_parcelles';

const TYPES = ['Rue', 'Avenue', 'Boulevard', 'Place', 'Impasse', 'Allée', 'Chemin', 'Quai', 'Passage', 'Villa'];
const NAMES = ['de la République', 'Victor Hugo', 'Jean Jaurès', 'de la Paix', 'Pasteur', 'du Général de Gaulle', 'des Écoles', 'de la Gare', 'Voltaire', 'Gambetta',
  'Saint-Antoine', 'de Charenton', "d'Italie", 'de Bretagne', 'Oberkampf', 'de la Roquette', 'Daumesnil', 'de Tolbiac', 'Vieille du Temple', 'de Rivoli'];

/** A deterministic pseudo-random sequence, so runs compare on the same file. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * A BAN-shaped file (published layout) of `rows` addresses in streets of about 40 numbers,
 * spread over the bounding box given ([minLng, minLat, maxLng, maxLat]).
 */
export async function generateBan(path: string, rows: number, bbox: [number, number, number, number], commune = { insee: '75111', cp: '75011', name: 'Paris 11e Arrondissement' }): Promise<void> {
  const out = createWriteStream(path);
  const rand = rng(42);
  out.write(`${BAN_HEADER}\n`);
  let street = 0, lon = 0, lat = 0, dx = 0, dy = 0;
  for (let i = 0; i < rows; i++) {
    const n = i % 40;
    if (n === 0) {
      street++;
      lon = bbox[0] + rand() * (bbox[2] - bbox[0]);
      lat = bbox[1] + rand() * (bbox[3] - bbox[1]);
      const a = rand() * Math.PI;
      dx = Math.cos(a) * 0.00012; dy = Math.sin(a) * 0.00008;
    }
    const plon = lon + dx * n, plat = lat + dy * n;
    const [x, y] = toL93.forward([plon, plat]) as [number, number];
    const voie = `${TYPES[street % TYPES.length]} ${NAMES[Math.floor(street / TYPES.length) % NAMES.length]} ${Math.floor(street / 200) || ''}`.trim();
    const fantoir = String(street % 10000).padStart(4, '0');
    const rep = i % 17 === 0 ? 'b' : '';
    const id = `${commune.insee}_${fantoir}_${String(n + 1).padStart(5, '0')}${rep ? `_${rep}` : ''}`;
    const line = [id, `${commune.insee}_${fantoir}`, n + 1, rep, voie, commune.cp, commune.insee, commune.name, '', '', x.toFixed(2), y.toFixed(2),
      plon.toFixed(6), plat.toFixed(6), 'entrée', '', '', 'PARIS', voie.toUpperCase(), 'commune', 'commune', '1', ''].join(';');
    if (!out.write(`${line}\n`)) await new Promise<void>((r) => { out.once('drain', () => r()); });
  }
  await new Promise<void>((r) => { out.end(() => r()); });
}
