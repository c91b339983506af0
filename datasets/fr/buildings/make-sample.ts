/**
 * Writes the building samples for Paris (75) and Abzac (33): `RNB_<dep>.csv` (the national
 * building reference, departmental export) and `bdnb_batiment_groupe_compile_<dep>.csv` (the
 * BDNB open export's compiled building-group table, the columns the job reads). One building per
 * parcel of the cadastre sample that the BAN sample names: its footprint a square around the
 * address cut to the parcel, linked to the address and the parcel.
 * Run: npx tsx datasets/fr/buildings/make-sample.ts (deterministic; after the cadastre sample).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { area, featureCollection, intersect, polygon } from '@turf/turf';
import type { Feature, Polygon } from 'geojson';
import { prng } from '../tools/addresses.ts';

const HERE = import.meta.dirname;
const rand = prng(2024);
// The heritage and electricity columns draw from their own generator, so the columns before them
// keep the values they had before these were added.
const rand2 = prng(2025);
// Social housing (RPLS) and the legal-person owners draw from a third generator, for the same reason.
const rand3 = prng(2026);
const MONUMENTS: Record<string, string[]> = {
  75103: ['Hôtel Salé', 'Hôtel de Soubise', 'Square du Temple'], 75104: ['Hôtel de Sens', 'Église Saint-Gervais-Saint-Protais'],
  75111: ['Église Sainte-Marguerite', 'Cirque d’Hiver'], 75112: ['Église Saint-Antoine des Quinze-Vingts'], 75113: ['Manufacture des Gobelins', 'Église Notre-Dame-de-la-Gare'],
  33001: ['Église Saint-Pierre'],
};
const ALNUM = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const code = (n: number) => Array.from({ length: n }, () => ALNUM[Math.floor(rand() * ALNUM.length)]).join('');

const parcels = new Map<string, Polygon>();
for (const c of ['75103', '75104', '75111', '75112', '75113', '33001']) {
  const file = join(HERE, '..', 'cadastre', `cadastre-${c}-parcelles.json${c === '33001' ? '.gz' : ''}`);
  const raw = readFileSync(file);
  const text = c === '33001' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  for (const f of (JSON.parse(text) as { features: { id: string; geometry: Polygon }[] }).features) parcels.set(f.id, f.geometry);
}
const r7 = (x: number) => Math.round(x * 1e7) / 1e7;
const wkt = (g: Polygon) => `POLYGON ((${g.coordinates[0]!.map(([x, y]) => `${x} ${y}`).join(', ')}))`;
const q = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** BDNB's Mérimée columns (the nearest historic monument within 500 m, else empty) and Enedis's residential consumption per meter. */
function heritageAndElectricity(commune: string, paris: boolean): string[] {
  const names = MONUMENTS[commune] ?? [];
  const near = names.length > 0 && rand2() < (paris ? 0.8 : 0.15);
  const name = near ? names[Math.floor(rand2() * names.length)]! : '';
  const distance = near ? String(20 + Math.floor(rand2() * 470)) : '';
  const kwh = rand2() < 0.1 ? '' : (paris ? 1800 + rand2() * 1700 : 4000 + rand2() * 4000).toFixed(1);
  return [distance, name.includes(',') ? q(name) : name, kwh];
}

/** Legal-person owners of the demo areas (invented): name, abbreviated legal form, social landlord or not. */
const OWNERS: Record<string, [name: string, form: string, social: boolean][]> = {
  75: [['SCI DU MARAIS', 'SCI', false], ['SCI LES JARDINS DU TEMPLE', 'SCI', false], ['FONCIERE DES QUATRE ARRONDISSEMENTS', 'SA', false], ['SOCIETE IMMOBILIERE DE LA BASTILLE', 'SAS', false],
    ['SA D HLM RESIDENCES DE L EST PARISIEN', 'SA', true], ['OFFICE PUBLIC DE L HABITAT DEMO', '', true], ['SCI GOBELINS PATRIMOINE', 'SCI', false], ['SARL ATELIERS SAINT-ANTOINE', 'SARL', false]],
  33: [['SCI LES VIGNES D ABZAC', 'SCI', false], ['COMMUNE D ABZAC', '', false], ['SA D HLM HABITAT DU LIBOURNAIS', 'SA', true]],
};
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rand3() * 10)).join('');

/**
 * BDNB's RPLS column (social dwellings of the group, empty when the RPLS names none) and the
 * legal-person owners of the group (proprietaire / rel_batiment_groupe_proprietaire rows).
 */
function socialAndOwners(dep: string, dwellings: number, owners: { id: string; name: string; form: string; social: boolean; siren: string; postcode: string; commune: string; premises: number }[]): { rpls: string; links: { owner: number; premises: number }[] } {
  const paris = dep === '75';
  const social = rand3() < (paris ? 0.25 : 0.06);
  const rpls = social ? String(Math.max(1, Math.round(dwellings * (0.5 + rand3() * 0.5)))) : '';
  const pool = owners.map((o, i) => ({ o, i })).filter((x) => x.o.social === social);
  const links: { owner: number; premises: number }[] = [];
  if (social || rand3() < (paris ? 0.35 : 0.1)) {
    const n = !social && paris && rand3() < 0.25 ? 2 : 1;
    for (const { i } of [...pool].sort(() => rand3() - 0.5).slice(0, n)) {
      const premises = social ? Number(rpls) : 1 + Math.floor(rand3() * Math.max(1, dwellings));
      links.push({ owner: i, premises });
      owners[i]!.premises += premises;
    }
  }
  return { rpls, links };
}

for (const [dep, file] of [['75', 'adresses-75.csv'], ['33', 'adresses-33.csv']] as const) {
  const owners = OWNERS[dep]!.map(([name, form, social]) => ({
    id: `${dep}${digits(6)}`, name, form, social, siren: name.startsWith('COMMUNE') ? `2${digits(8)}` : digits(9),
    postcode: dep === '75' ? `750${String(1 + Math.floor(rand3() * 20)).padStart(2, '0')}` : '33230', commune: dep === '75' ? 'PARIS' : 'ABZAC', premises: 0,
  }));
  const ownerLinks: string[] = ['batiment_groupe_id,personne_id,nb_locaux_open'];
  const [head, ...lines] = readFileSync(join(HERE, '..', 'ban', file), 'utf8').trim().split('\n');
  const cols = head!.split(';');
  const rnb: string[] = ['rnb_id;point;shape;status;ext_ids;addresses'];
  const bdnb: string[] = ['batiment_groupe_id,code_departement_insee,code_commune_insee,rnb_id,parcelle_unifiee_id,s_geom_groupe,ffo_bat_annee_construction,ffo_bat_nb_log,ffo_bat_nb_niveau,ffo_bat_mat_mur_txt,ffo_bat_mat_toit_txt,ffo_bat_usage_niveau_1_txt,bdtopo_bat_hauteur_mean,merimee_distance_batiment_historique_plus_proche,merimee_nom_batiment_historique_plus_proche,dle_elec_2020_conso_res_par_pdl,rpls_nb_log'];
  for (const c of lines.map((l) => l.split(';'))) {
    const at = (n: string) => c[cols.indexOf(n)]!;
    const parcel = at('cad_parcelles');
    if (!parcel || !parcels.has(parcel)) continue;
    const lng = Number(at('lon')), lat = Number(at('lat'));
    const paris = dep === '75';
    const half = paris ? 0.00011 : 0.00007;
    const square = polygon([[[lng - half, lat - half], [lng + half, lat - half], [lng + half, lat + half], [lng - half, lat + half], [lng - half, lat - half]]]);
    const cut = intersect(featureCollection([square, { type: 'Feature', properties: {}, geometry: parcels.get(parcel)! } as Feature<Polygon>])) as Feature<Polygon> | null;
    if (!cut || cut.geometry.type !== 'Polygon') continue;
    const shape: Polygon = { type: 'Polygon', coordinates: [cut.geometry.coordinates[0]!.map(([x, y]) => [r7(x!), r7(y!)])] };
    const id = code(12);
    const bdtopo = `BATIMENT${String(Math.floor(rand() * 1e16)).padStart(16, '0')}`;
    const status = rand() < 0.03 ? 'demolished' : 'constructed';
    rnb.push([id, `POINT (${lng} ${lat})`, wkt(shape), status,
      q(JSON.stringify([{ id: bdtopo, source: 'bdtopo', created_at: '2023-01-12T10:00:00Z', source_version: 'bdtopo_2023_09' }])),
      q(JSON.stringify([{ id: at('id'), source: 'ban' }]))].join(';'));
    if (rand() < 0.15) continue; // some RNB buildings have no BDNB group
    const levels = paris ? 5 + Math.floor(rand() * 3) : 1 + Math.floor(rand() * 2);
    const year = paris ? 1850 + Math.floor(rand() * 80) : 1950 + Math.floor(rand() * 60);
    const walls = paris ? (rand() < 0.7 ? 'PIERRE' : 'BRIQUES') : rand() < 0.6 ? 'AGGLOMERE' : 'BETON';
    const group = `bdnb-bg-${code(4)}-${code(4)}-${code(4)}`, dwellings = paris ? 8 + Math.floor(rand() * 20) : 1;
    const cells = [group, dep, at('code_insee'), id, parcel, Math.round(area(shape)), year, dwellings, levels,
      walls, paris ? (rand() < 0.8 ? 'ZINC ALUMINIUM' : 'ARDOISES') : 'TUILES', paris ? 'Résidentiel collectif' : 'Résidentiel individuel',
      rand() < 0.1 ? '' : (levels * 3 + rand() * 2).toFixed(1), ...heritageAndElectricity(at('code_insee'), paris)];
    const { rpls, links } = socialAndOwners(dep, dwellings, owners);
    bdnb.push([...cells, rpls].join(','));
    for (const l of links) ownerLinks.push([group, owners[l.owner]!.id, l.premises].join(','));
  }
  writeFileSync(join(HERE, `RNB_${dep}.csv`), `${rnb.join('\n')}\n`);
  writeFileSync(join(HERE, `bdnb_batiment_groupe_compile_${dep}.csv`), `${bdnb.join('\n')}\n`);
  const props = ['personne_id,code_departement_insee,siren,forme_juridique,denomination,code_postal,libelle_commune,nb_locaux_open,dans_majic_pm',
    ...owners.filter((o) => o.premises > 0).map((o) => [o.id, dep, o.siren, o.form, o.name, o.postcode, o.commune, o.premises, 'true'].join(','))];
  writeFileSync(join(HERE, `bdnb_proprietaire_${dep}.csv`), `${props.join('\n')}\n`);
  writeFileSync(join(HERE, `bdnb_rel_batiment_groupe_proprietaire_${dep}.csv`), `${ownerLinks.join('\n')}\n`);
  console.log(`${dep}: ${rnb.length - 1} RNB buildings, ${bdnb.length - 1} BDNB groups, ${props.length - 1} legal owners, ${ownerLinks.length - 1} owner links`);
}
