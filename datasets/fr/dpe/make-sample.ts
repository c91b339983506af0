/**
 * Writes the DPE sample `dpe-v2-logements-existants-sample.csv`: diagnoses of dwellings at the
 * addresses of the BAN sample whose parcel the DVF sample sells (flats by lot with the sold
 * surface, houses in Abzac), a building-level diagnosis, a corrected diagnosis naming the one it
 * replaces, and two diagnoses of one dwelling naming its tax invariant and its RPLS number.
 * Run: npx tsx datasets/fr/dpe/make-sample.ts (deterministic).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../tools/addresses.ts';

const HERE = import.meta.dirname;
/** The published header of ADEME's DPE v2 export (new dwellings), then the construction columns the existing-dwellings export adds. */
const HEADER = "N°DPE,Date_réception_DPE,Date_établissement_DPE,Date_visite_diagnostiqueur,Modèle_DPE,N°_DPE_remplacé,Date_fin_validité_DPE,Version_DPE,N°_DPE_immeuble_associé,Appartement_non_visité_(0/1),Méthode_application_DPE,N°_immatriculation_copropriété,N°_RPLS_logement,Invariant_fiscal_logement,Etiquette_DPE,Etiquette_GES,Type_bâtiment,Type_installation_chauffage,Type_installation_ECS_(général),Hauteur_sous-plafond,Nombre_appartement,Nombre_niveau_immeuble,Nombre_niveau_logement,Surface_habitable_immeuble,Surface_tertiaire_immeuble,Surface_habitable_logement,Classe_inertie_bâtiment,Typologie_logement,Position_logement_dans_immeuble,Classe_altitude,Zone_climatique_,Adresse_brute,Nom__commune_(BAN),Code_INSEE_(BAN),N°_voie_(BAN),Identifiant__BAN,Adresse_(BAN),Code_postal_(BAN),Score_BAN,Nom__rue_(BAN),Coordonnée_cartographique_X_(BAN),Coordonnée_cartographique_Y_(BAN),Code_postal_(brut),N°_étage_appartement,Nom_résidence,Complément_d'adresse_bâtiment,Cage_d'escalier,Complément_d'adresse_logement,Statut_géocodage,Nom__commune_(Brut),N°_département_(BAN),N°_région_(BAN),Conso_5_usages_é_finale,Conso_5_usages/m²_é_finale,Conso_chauffage_é_finale,Conso_chauffage_dépensier_é_finale,Conso_éclairage_é_finale,Conso_ECS_é_finale,Conso_ECS_dépensier_é_finale,Conso_refroidissement_é_finale,Conso_refroidissement_dépensier_é_finale,Conso_auxiliaires_é_finale,Conso_5_usages_é_primaire,Conso_5_usages_par_m²_é_primaire,Conso_chauffage_é_primaire,Conso_chauffage_dépensier_é_primaire,Conso_éclairage_é_primaire,Conso_ECS_é_primaire,Conso_ECS_dépensier_é_primaire,Conso_refroidissement_é_primaire,Conso_refroidissement_dépensier_é_primaire,Conso_auxiliaires_é_primaire,Emission_GES_5_usages,Emission_GES_5_usages_par_m²,Emission_GES_chauffage,Emission_GES_chauffage_dépensier,Emission_GES_éclairage,Emission_GES_ECS,Emission_GES_ECS_dépensier,Emission_GES_refroidissement,Emission_GES_refroidissement_dépensier,Emission_GES_auxiliaires,Conso_5_usages_énergie_n°1,Conso_chauffage_énergie_n°1,Conso_ECS_énergie_n°1,Coût_5_usages_énergie_n°1,Coût_chauffage_énergie_n°1,Coût_ECS_énergie_n°1,Emission_GES_5_usages_énergie_n°1,Emission_GES_chauffage_par_énergie_n°1,Emission_GES_ECS_par_énergie_n°1,Type_énergie_n°1,Conso_5_usages_énergie_n°2,Conso_chauffage_énergie_n°2,Conso_ECS_énergie_n°2,Coût_5_usages_énergie_n°2,Coût_chauffage_énergie_n°2,Coût_ECS_énergie_n°2,Emission_GES_5_usages_énergie_n°2,Emission_GES_chauffage_par_énergie_n°2,Emission_GES_ECS_par_énergie_n°2,Type_énergie_n°2,Conso_5_usages_énergie_n°3,Conso_chauffage_énergie_n°3,Conso_ECS_énergie_n°3,Coût_5_usages_énergie_n°3,Coût_chauffage_énergie_n°3,Coût_ECS_énergie_n°3,Emission_GES_5_usages_énergie_n°3,Emission_GES_chauffage_par_énergie_n°3,Emission_GES_ECS_par_énergie_n°3,Type_énergie_n°3,Coût_total_5_usages,Coût_chauffage,Coût_chauffage_dépensier,Coût_éclairage,Coût_ECS_dépensier,Coût_ECS,Coût_refroidissement,Coût_refroidissement_dépensier,Coût_auxiliaires,Logement_traversant_(0/1),Présence_brasseur_air_(0/1),Indicateur_confort_été,Isolation_toiture_(0/1),Protection_solaire_exterieure_(0/1),Inertie_lourde_(0/1),Deperditions_baies_vitrées,Deperditions_enveloppe,Déperditions_murs,Deperditions_planchers_bas,Deperditions_planchers_hauts,Déperditions_ponts_thermiques,Déperditions_portes,Déperditions_renouvellement_air,Qualité_isolation_enveloppe,Qualité_isolation_menuiseries,Qualité_isolation_murs,Qualité_isolation_plancher_bas,Ubat_W/m²_K,Qualité_isolation_plancher_haut_comble_aménagé,Besoin_chauffage,Besoin_ECS,Besoin_refroidissement,Conso_chauffage_installation_chauffage_n°1,Description_installation_chauffage_n°1,Configuration_installation_chauffage_n°1,Type_installation_chauffage_n°1,Surface_chauffée_installation_chauffage_n°1,Type_émetteur_installation_chauffage_n°1,Conso_chauffage_générateur_n°1_installation_n°1,Type_générateur_n°2_installation_n°1,Conso_chauffage_dépensier_générateur_n°1_installation_n°1,Type_énergie_générateur_n°1_installation_n°1,Type_générateur_n°1_installation_n°1,Usage_générateur_n°1_installation_n°1,Conso_chauffage_générateur_n°2_installation_n°1,Conso_chauffage_dépensier_générateur_n°2_installation_n°1,Type_énergie_générateur_n°2_installation_n°1,Usage_générateur_n°2_installation_n°1,Conso_chauffage_installation_chauffage_n°2,Description_installation_chauffage_n°2,Configuration_installation_chauffage_n°2,Type_installation_chauffage_n°2,Surface_chauffée_installation_chauffage_n°2,Type_émetteur_installation_chauffage_n°2,Conso_chauffage_générateur_n°1_installation_n°2,Conso_chauffage_dépensier_générateur_n°1_installation_n°2,Type_énergie_générateur_n°1_installation_n°2,Type_générateur_n°1_installation_n°2,Usage_générateur_n°1_installation_n°2,Conso_chauffage_générateur_n°2_installation_n°2,Conso_chauffage_dépensier_générateur_n°2_installation_n°2,Type_énergie_générateur_n°2_installation_n°2,Type_générateur_n°2_installation_n°2,Usage_générateur_n°2_installation_n°2,Clé_répartition_chauffage,Conso_é_finale_installation_ECS,Description_installation_ECS,Configuration_installation_ECS,Type_installation_ECS,Type_installation_solaire,Nombre_logements_desservis_par_installation_ECS,Production_ecs_solaire_installation,Surface_habitable_desservie_par_installation_ECS,Conso_é_finale_générateur_ECS_n°1,COP_générateur_ECS_n°1,Description_générateur_ECS_n°1,Type_énergie_générateur_ECS_n°1,Type_générateur_ECS_n°1,Usage_générateur_ECS_n°1,Volume_stockage_générateur_ECS_n°1,Conso_é_finale_générateur_ECS_n°2,COP_générateur_ECS_n°2,Description_générateur_ECS_n°2,Type_énergie_générateur_ECS_n°2,Type_générateur_ECS_n°2,Usage_générateur_ECS_n°2,Volume_stockage_générateur_ECS_n°2,Type_ventilation,Surface_ventilée,Ventilation_postérieure_2012_(0/1),Besoin_refroidissement_annuel,Conso_refroidissement_annuel,Description_générateur_froid,Type_générateur_froid,Surface_climatisée,Catégorie_ENR,Electricité_PV_autoconsommée,Système_production_électricité_origine_renouvelable,Présence_production_PV_(0/1),Production_électricité_PV_kWh,Production_électricité_PV_kWh/m²,Surface_totale_capteurs_photovoltaïque,Nombre_module,Type_énergie_principale_chauffage,Type_énergie_principale_ECS,Déperditions_totales_logement,Déperditions_totales_bâtiment,Conso_5_usages_é_finale_énergie_n°1".split(',').concat(['Année_construction', 'Période_construction']);

const rand = prng(17);
const csvSplit = (l: string, sep: string) => l.split(sep);
interface Ban { id: string; label: string; insee: string; cp: string; x: string; y: string; commune: string; numero: string; voie: string }
const ban = new Map<string, Ban>();
for (const f of ['adresses-75.csv', 'adresses-33.csv']) {
  const [head, ...lines] = readFileSync(join(HERE, '..', 'ban', f), 'utf8').trim().split('\n');
  const cols = head!.split(';');
  for (const c of lines.map((l) => csvSplit(l, ';'))) {
    const at = (n: string) => c[cols.indexOf(n)]!;
    if (!at('cad_parcelles')) continue;
    const numero = `${at('numero')}${at('rep')}`;
    ban.set(at('cad_parcelles'), { id: at('id'), insee: at('code_insee'), cp: at('code_postal'), x: at('x'), y: at('y'), commune: at('nom_commune'), numero, voie: at('nom_voie'), label: `${numero} ${at('nom_voie')} ${at('code_postal')} ${at('nom_commune').replace(/ \d+e Arrondissement/, '')}` });
  }
}
interface Lot { parcel: string; lot: string | null; type: string; surface: number; date: string }
const lots = new Map<string, Lot>();
const dvf = join(HERE, '..', 'dvf', 'csv');
for (const year of readdirSync(dvf).sort()) for (const f of readdirSync(join(dvf, year, 'departements')).sort()) {
  const [head, ...lines] = readFileSync(join(dvf, year, 'departements', f), 'utf8').trim().split('\n');
  const cols = head!.split(',');
  for (const c of lines.map((l) => csvSplit(l, ','))) {
    const at = (n: string) => c[cols.indexOf(n)]!;
    const type = at('type_local');
    if (!ban.has(at('id_parcelle')) || (type !== 'Appartement' && type !== 'Maison') || !at('surface_reelle_bati')) continue;
    const lot = type === 'Appartement' ? at('lot1_numero') || null : null;
    lots.set(`${at('id_parcelle')}:${lot}`, { parcel: at('id_parcelle'), lot, type, surface: Number(at('lot1_surface_carrez') || at('surface_reelle_bati')), date: at('date_mutation') });
  }
}

const CLASSES = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
let serial = 0;
const number = (date: string, dep: string) => `${date.slice(2, 4)}${dep}E${String(1000000 + serial++ * 7919).slice(0, 7)}${'ABCDEFGHJKLMNPQRSTUVWXYZ'[serial % 24]}`;
const rows: Record<string, string>[] = [];
function dpe(b: Ban, o: { type: 'appartement' | 'maison' | 'immeuble'; date: string; surface: number; floor?: number; replaces?: string; invariant?: string; rpls?: string; year: number }): string {
  const kwh = Math.round(70 + rand() * 330);
  const cls = CLASSES[Math.min(6, Math.floor((kwh - 50) / 60))]!;
  const dep = b.insee.slice(0, 2);
  const n = number(o.date, dep);
  rows.push({
    'N°DPE': n, 'Date_réception_DPE': o.date, 'Date_établissement_DPE': o.date, 'Date_visite_diagnostiqueur': o.date, 'Modèle_DPE': 'DPE 3CL 2021 méthode logement',
    'N°_DPE_remplacé': o.replaces ?? '', 'Date_fin_validité_DPE': `${Number(o.date.slice(0, 4)) + 10}${o.date.slice(4)}`, 'Version_DPE': '2.4',
    'Méthode_application_DPE': o.type === 'immeuble' ? 'dpe immeuble collectif' : `dpe ${o.type === 'maison' ? 'maison individuelle' : 'appartement individuel'}`,
    'Invariant_fiscal_logement': o.invariant ?? '', 'N°_RPLS_logement': o.rpls ?? '', 'Etiquette_DPE': cls, 'Etiquette_GES': CLASSES[Math.min(6, Math.floor(rand() * 5))]!,
    'Type_bâtiment': o.type, 'Type_installation_chauffage': o.type === 'maison' ? 'individuel' : rand() < 0.5 ? 'collectif' : 'individuel',
    'Surface_habitable_logement': o.type === 'immeuble' ? '' : o.surface.toFixed(1), 'Surface_habitable_immeuble': o.type === 'immeuble' ? o.surface.toFixed(1) : '',
    'Adresse_brute': b.label, 'Nom__commune_(BAN)': b.commune, 'Code_INSEE_(BAN)': b.insee, 'N°_voie_(BAN)': b.numero, 'Identifiant__BAN': b.id, 'Adresse_(BAN)': b.label,
    'Code_postal_(BAN)': b.cp, 'Score_BAN': (0.8 + rand() * 0.19).toFixed(2), 'Nom__rue_(BAN)': b.voie, 'Coordonnée_cartographique_X_(BAN)': b.x, 'Coordonnée_cartographique_Y_(BAN)': b.y,
    'Code_postal_(brut)': b.cp, 'N°_étage_appartement': o.floor === undefined ? '' : String(o.floor), 'Statut_géocodage': "adresse géocodée ban à l'adresse",
    'Nom__commune_(Brut)': b.commune, 'N°_département_(BAN)': dep, 'N°_région_(BAN)': dep === '75' ? '11' : '75',
    'Conso_5_usages_par_m²_é_primaire': String(kwh), 'Emission_GES_5_usages_par_m²': (kwh / 20).toFixed(1),
    'Type_énergie_principale_chauffage': o.type === 'maison' ? 'Fioul domestique' : rand() < 0.6 ? 'Gaz naturel' : 'Électricité',
    'Nombre_niveau_immeuble': o.type === 'maison' ? '' : String(5 + (b.id.length % 3)), 'Nombre_appartement': o.type === 'maison' ? '' : String(10 + (Number(b.numero.replace(/\D/g, '')) % 15)),
    'Année_construction': String(o.year), 'Période_construction': o.year < 1948 ? 'avant 1948' : o.year < 1975 ? '1948-1974' : '1975-1977',
  });
  return n;
}

for (const l of [...lots.values()].sort((a, b) => (a.parcel + a.lot < b.parcel + b.lot ? -1 : 1))) {
  if (rand() < 0.45) continue;
  const b = ban.get(l.parcel)!;
  const date = `${Number(l.date.slice(0, 4)) + (rand() < 0.5 ? 0 : 1)}-${l.date.slice(5, 7)}-15`;
  if (date < '2021-07-01') continue; // DPE v2 starts in July 2021
  dpe(b, { type: l.type === 'Maison' ? 'maison' : 'appartement', date, surface: Math.round(l.surface * (0.98 + rand() * 0.04) * 10) / 10, floor: l.type === 'Maison' ? undefined : Math.floor(rand() * 6), year: l.parcel.startsWith('75') ? 1880 + Math.floor(rand() * 60) : 1950 + Math.floor(rand() * 27) });
}
// A building-level diagnosis, then a corrected diagnosis replacing a flat's, then one dwelling named twice.
const paris = [...ban.entries()].filter(([p]) => p.startsWith('75111')).map(([, b]) => b);
dpe(paris[0]!, { type: 'immeuble', date: '2023-03-02', surface: 1240, year: 1890 });
const first = dpe(paris[1]!, { type: 'appartement', date: '2022-05-10', surface: 48.2, floor: 3, year: 1890 });
dpe(paris[1]!, { type: 'appartement', date: '2022-06-01', surface: 46.9, floor: 3, replaces: first, year: 1890 });
dpe(paris[2]!, { type: 'appartement', date: '2022-09-20', surface: 61.5, floor: 2, invariant: '1110123456', year: 1905 });
dpe(paris[2]!, { type: 'appartement', date: '2024-02-11', surface: 61.0, floor: 2, invariant: '1110123456', rpls: '0123456789A', year: 1905 });

// As ADEME's export: numbers unquoted, text (codes too: "69388") quoted.
const NUMERIC = /^(Version_DPE|Surface_|Conso_|Emission_|Score_BAN|Coordonnée_|Année_construction|N°_étage)/;
const quote = (h: string, v: string) => (NUMERIC.test(h) ? v : `"${v.replaceAll('"', '""')}"`);
const text = `\uFEFF${HEADER.map((h) => `"${h}"`).join(',')}\n${rows.map((r) => HEADER.map((h) => (r[h] === undefined || r[h] === '' ? '' : quote(h, r[h]!))).join(',')).join('\n')}\n`;
writeFileSync(join(HERE, 'dpe-v2-logements-existants-sample.csv'), text);
console.log(`${rows.length} diagnoses`);
