/**
 * Hand-drawn, approximate geography of Paris used to build the SAMPLE boundaries. Everything here
 * was typed from general knowledge of the city (main streets, gates of the boulevard
 * périphérique, the Seine); nothing is taken from a boundary file. Accuracy is tens of metres to
 * a few hundred metres: good enough for a demo, not for analysis.
 *
 * - OUTLINE: the commune of Paris including the Bois de Boulogne and the Bois de Vincennes,
 *   clockwise, starting at the Porte Maillot.
 * - BORDERS: arrondissement borders drawn along the real streets where they run (boulevard
 *   Beaumarchais, rue du Faubourg Saint-Antoine, the Seine...), with the arrondissement on each side.
 * - ANCHORS: a few interior points per arrondissement; borders not drawn come out as the Voronoi
 *   bisectors between anchors (coarse, especially away from the demo arrondissements).
 * - IRIS: names and approximate centres of the IRIS used for the demo arrondissements.
 */
import type { LonLat } from './crs.ts';

export const OUTLINE: LonLat[] = [
  [2.283, 48.878], // Porte Maillot
  [2.292, 48.886], // Porte de Champerret
  [2.3, 48.89],
  [2.313, 48.895], // Porte de Clichy
  [2.329, 48.898], // Porte de Saint-Ouen
  [2.345, 48.9], // Porte de Clignancourt
  [2.359, 48.899], // Porte de la Chapelle
  [2.371, 48.899], // Porte d'Aubervilliers
  [2.386, 48.8975], // Porte de la Villette
  [2.393, 48.89], // Porte de Pantin
  [2.399, 48.882],
  [2.407, 48.877], // Porte des Lilas
  [2.413, 48.87],
  [2.41, 48.864], // Porte de Bagnolet
  [2.411, 48.853], // Porte de Montreuil
  [2.411, 48.847], // Porte de Vincennes
  [2.416, 48.8465],
  [2.43, 48.846], // Bois de Vincennes, Saint-Mandé / Vincennes side
  [2.445, 48.845],
  [2.46, 48.842],
  [2.469, 48.835], // east tip, Joinville side
  [2.46, 48.825],
  [2.44, 48.82],
  [2.42, 48.823],
  [2.41, 48.827],
  [2.403, 48.831], // Porte de Charenton
  [2.395, 48.825], // the Seine enters Paris
  [2.376, 48.8205], // Porte d'Ivry
  [2.366, 48.8185], // Porte de Choisy
  [2.3595, 48.817], // Porte d'Italie
  [2.343, 48.8165], // Porte de Gentilly
  [2.3255, 48.823], // Porte d'Orléans
  [2.317, 48.825], // Porte de Châtillon
  [2.305, 48.828], // Porte de Vanves
  [2.287, 48.832], // Porte de Versailles
  [2.275, 48.833],
  [2.269, 48.8375], // the Seine leaves Paris
  [2.2565, 48.838], // Porte de Saint-Cloud
  [2.247, 48.843],
  [2.243, 48.848], // Bois de Boulogne
  [2.227, 48.86],
  [2.225, 48.87],
  [2.235, 48.877],
  [2.26, 48.88], // Neuilly side
];

export interface BorderLine {
  name: string;
  points: LonLat[];
  /** arrondissement on the left / right when walking from the first to the last point */
  left: string | ((p: LonLat) => string);
  right: string | ((p: LonLat) => string);
}

const BASTILLE: LonLat = [2.3693, 48.8532];
const BEAUMARCHAIS_PAS_DE_LA_MULE: LonLat = [2.3685, 48.8557];
const SEBASTOPOL_RAMBUTEAU: LonLat = [2.35, 48.862];
const SEBASTOPOL_ST_DENIS: LonLat = [2.3545, 48.8692];
const REPUBLIQUE: LonLat = [2.3638, 48.867];
const BELLEVILLE: LonLat = [2.3767, 48.8719];
const NATION: LonLat = [2.399, 48.8486];
const PORT_ROYAL_SANTE: LonLat = [2.3417, 48.838];

/** The Seine (middle of the river), upstream to downstream; south arm around the islands. */
export const SEINE: LonLat[] = [
  [2.395, 48.825],
  [2.39, 48.8285],
  [2.38, 48.8345],
  [2.3745, 48.839],
  [2.3685, 48.8437],
  [2.3665, 48.845], // boulevard de l'Hôpital side
  [2.3655, 48.8462], // mouth of the bassin de l'Arsenal
  [2.362, 48.8495],
  [2.3585, 48.85],
  [2.354, 48.851],
  [2.35, 48.852],
  [2.3456, 48.8542], // Pont Saint-Michel
  [2.34, 48.8568],
  [2.336, 48.8585],
  [2.33, 48.8605],
  [2.322, 48.863],
  [2.315, 48.864],
  [2.305, 48.8635],
  [2.297, 48.8615],
  [2.29, 48.8575],
  [2.284, 48.853],
  [2.278, 48.848],
  [2.272, 48.842],
  [2.269, 48.8375],
];

export const BORDERS: BorderLine[] = [
  {
    name: 'boulevards Beaumarchais, des Filles-du-Calvaire, du Temple',
    points: [
      BASTILLE,
      [2.369, 48.854],
      [2.3687, 48.855],
      BEAUMARCHAIS_PAS_DE_LA_MULE,
      [2.3682, 48.857],
      [2.3677, 48.859],
      [2.3674, 48.8602],
      [2.3671, 48.863],
      [2.3664, 48.8644],
      [2.3647, 48.8665],
      REPUBLIQUE,
    ],
    left: ([, lat]) => (lat < BEAUMARCHAIS_PAS_DE_LA_MULE[1] ? '75104' : '75103'),
    right: '75111',
  },
  {
    name: 'rue du Pas-de-la-Mule, rue des Francs-Bourgeois, rue Rambuteau',
    points: [
      BEAUMARCHAIS_PAS_DE_LA_MULE,
      [2.3665, 48.8561],
      [2.3646, 48.8562],
      [2.3627, 48.857],
      [2.3602, 48.858],
      [2.3578, 48.8592],
      [2.356, 48.8601],
      [2.353, 48.8613],
      SEBASTOPOL_RAMBUTEAU,
    ],
    left: '75104',
    right: '75103',
  },
  {
    name: 'boulevard de Sébastopol (and across the Île de la Cité)',
    points: [[2.3456, 48.8542], [2.3464, 48.8556], [2.347, 48.857], [2.3476, 48.858], SEBASTOPOL_RAMBUTEAU, SEBASTOPOL_ST_DENIS],
    left: ([, lat]) => (lat < 48.864 ? '75101' : '75102'),
    right: ([, lat]) => (lat < SEBASTOPOL_RAMBUTEAU[1] ? '75104' : '75103'),
  },
  {
    name: 'boulevard Saint-Martin',
    points: [SEBASTOPOL_ST_DENIS, [2.358, 48.8687], [2.362, 48.8676], REPUBLIQUE],
    left: '75110',
    right: '75103',
  },
  {
    name: 'rue du Faubourg du Temple',
    points: [REPUBLIQUE, [2.368, 48.8691], [2.372, 48.8706], BELLEVILLE],
    left: '75110',
    right: '75111',
  },
  {
    name: 'boulevards de Belleville, de Ménilmontant, de Charonne',
    points: [BELLEVILLE, [2.38, 48.8695], [2.3835, 48.8665], [2.3881, 48.862], [2.3937, 48.857], [2.3965, 48.854], [2.3981, 48.852], [2.399, 48.85], NATION],
    left: '75120',
    right: '75111',
  },
  {
    name: 'rue du Faubourg Saint-Antoine',
    points: [BASTILLE, [2.3698, 48.853], [2.3725, 48.8522], [2.3752, 48.8514], [2.378, 48.8507], [2.385, 48.85], [2.392, 48.8489], [2.3954, 48.8484], NATION],
    left: '75111',
    right: '75112',
  },
  {
    name: 'cours de Vincennes',
    points: [NATION, [2.4, 48.848], [2.406, 48.8473], [2.411, 48.847]],
    left: '75120',
    right: '75112',
  },
  {
    name: "bassin de l'Arsenal",
    points: [BASTILLE, [2.3681, 48.8505], [2.3669, 48.848], [2.3655, 48.8462]],
    left: '75112',
    right: '75104',
  },
  {
    name: "boulevard de l'Hôpital, boulevards Saint-Marcel and de Port-Royal",
    points: [[2.3665, 48.845], [2.3646, 48.8435], [2.3628, 48.841], [2.3605, 48.8391], [2.356, 48.8382], [2.349, 48.8372], [2.345, 48.8378], PORT_ROYAL_SANTE],
    left: '75113',
    right: '75105',
  },
  {
    name: 'rue de la Santé and southwards',
    points: [PORT_ROYAL_SANTE, [2.3419, 48.835], [2.3413, 48.83], [2.3416, 48.825], [2.3443, 48.82], [2.343, 48.8165]],
    left: '75113',
    right: '75114',
  },
  {
    name: 'the Seine',
    points: SEINE,
    // walking downstream (westwards): the left bank is on the left
    left: ([lon]) => (lon > 2.3665 ? '75113' : lon > 2.3445 ? '75105' : lon > 2.3325 ? '75106' : lon > 2.2905 ? '75107' : '75115'),
    right: ([lon]) => (lon > 2.3655 ? '75112' : lon > 2.3456 ? '75104' : lon > 2.3215 ? '75101' : lon > 2.301 ? '75108' : '75116'),
  },
];

export const ANCHORS: Record<string, LonLat[]> = {
  '75101': [[2.34, 48.861], [2.333, 48.864], [2.345, 48.8605], [2.326, 48.866], [2.3445, 48.8558]],
  '75102': [[2.342, 48.868], [2.348, 48.868], [2.336, 48.869]],
  '75103': [[2.36, 48.863], [2.356, 48.866], [2.3635, 48.8605]],
  '75104': [[2.355, 48.856], [2.352, 48.8535], [2.3565, 48.8518], [2.364, 48.8535]],
  '75105': [[2.35, 48.845], [2.345, 48.842], [2.355, 48.843], [2.342, 48.848], [2.358, 48.8425]],
  '75106': [[2.333, 48.849], [2.328, 48.845], [2.338, 48.853]],
  '75107': [[2.312, 48.856], [2.3, 48.856], [2.322, 48.856], [2.318, 48.852]],
  '75108': [[2.312, 48.873], [2.3, 48.871], [2.32, 48.87], [2.318, 48.878]],
  '75109': [[2.338, 48.877], [2.33, 48.875], [2.345, 48.88]],
  '75110': [[2.36, 48.876], [2.355, 48.872], [2.365, 48.872], [2.365, 48.88]],
  '75111': [[2.38, 48.859], [2.372, 48.864], [2.388, 48.853], [2.375, 48.856]],
  '75112': [[2.385, 48.842], [2.395, 48.84], [2.41, 48.84], [2.43, 48.835], [2.45, 48.832], [2.38, 48.847], [2.405, 48.83], [2.375, 48.8475]],
  '75113': [[2.362, 48.828], [2.35, 48.828], [2.37, 48.835], [2.355, 48.82], [2.375, 48.826], [2.36, 48.835]],
  '75114': [[2.326, 48.829], [2.33, 48.838], [2.32, 48.826], [2.336, 48.823]],
  '75115': [[2.293, 48.84], [2.305, 48.844], [2.285, 48.845], [2.298, 48.833]],
  '75116': [[2.27, 48.86], [2.26, 48.85], [2.28, 48.868], [2.245, 48.86], [2.265, 48.872]],
  '75117': [[2.307, 48.887], [2.295, 48.883], [2.32, 48.89]],
  '75118': [[2.348, 48.892], [2.335, 48.89], [2.36, 48.892]],
  '75119': [[2.385, 48.887], [2.375, 48.882], [2.395, 48.88]],
  '75120': [[2.4, 48.863], [2.395, 48.87], [2.405, 48.855], [2.392, 48.86]],
};

/** Paris quarter numbers (1..80) and names; IRIS codes are <quarter 2 digits><serial 2 digits>. */
export const QUARTIERS: Record<string, [number, string][]> = {
  '75101': [[1, "Saint-Germain l'Auxerrois"], [2, 'Halles'], [3, 'Palais Royal'], [4, 'Place Vendôme']],
  '75102': [[5, 'Gaillon'], [6, 'Vivienne'], [7, 'Mail'], [8, 'Bonne Nouvelle']],
  '75103': [[9, 'Arts et Métiers'], [10, 'Enfants Rouges'], [11, 'Archives'], [12, 'Sainte-Avoye']],
  '75104': [[13, 'Saint-Merri'], [14, 'Saint-Gervais'], [15, 'Arsenal'], [16, 'Notre-Dame']],
  '75105': [[17, 'Saint-Victor'], [18, 'Jardin des Plantes'], [19, 'Val de Grâce'], [20, 'Sorbonne']],
  '75106': [[21, 'Monnaie'], [22, 'Odéon'], [23, 'Notre-Dame des Champs'], [24, 'Saint-Germain des Prés']],
  '75107': [[25, "Saint-Thomas d'Aquin"], [26, 'Invalides'], [27, 'École Militaire'], [28, 'Gros Caillou']],
  '75108': [[29, 'Champs-Élysées'], [30, 'Faubourg du Roule'], [31, 'Madeleine'], [32, 'Europe']],
  '75109': [[33, 'Saint-Georges'], [34, "Chaussée d'Antin"], [35, 'Faubourg Montmartre'], [36, 'Rochechouart']],
  '75110': [[37, 'Saint-Vincent de Paul'], [38, 'Porte Saint-Denis'], [39, 'Porte Saint-Martin'], [40, 'Hôpital Saint-Louis']],
  '75111': [[41, 'Folie Méricourt'], [42, 'Saint-Ambroise'], [43, 'Roquette'], [44, 'Sainte-Marguerite']],
  '75112': [[45, 'Bel Air'], [46, 'Picpus'], [47, 'Bercy'], [48, 'Quinze-Vingts']],
  '75113': [[49, 'Salpêtrière'], [50, 'Gare'], [51, 'Maison Blanche'], [52, 'Croulebarbe']],
  '75114': [[53, 'Montparnasse'], [54, 'Parc de Montsouris'], [55, 'Petit Montrouge'], [56, 'Plaisance']],
  '75115': [[57, 'Saint-Lambert'], [58, 'Necker'], [59, 'Grenelle'], [60, 'Javel']],
  '75116': [[61, 'Auteuil'], [62, 'Muette'], [63, 'Porte Dauphine'], [64, 'Chaillot']],
  '75117': [[65, 'Ternes'], [66, 'Plaine de Monceaux'], [67, 'Batignolles'], [68, 'Épinettes']],
  '75118': [[69, 'Grandes Carrières'], [70, 'Clignancourt'], [71, "Goutte d'Or"], [72, 'Chapelle']],
  '75119': [[73, 'Villette'], [74, 'Pont de Flandre'], [75, 'Amérique'], [76, 'Combat']],
  '75120': [[77, 'Belleville'], [78, 'Saint-Fargeau'], [79, 'Père Lachaise'], [80, 'Charonne']],
};

export interface IrisCentre {
  /** 4-digit IRIS number inside the arrondissement */
  iris: string;
  name: string;
  centre: LonLat;
}

/** Several IRIS per demo arrondissement (approximate centres, inside the right quarter). */
export const DEMO_IRIS: Record<string, IrisCentre[]> = {
  '75103': [
    { iris: '0901', name: 'Arts et Métiers 1', centre: [2.3545, 48.8655] },
    { iris: '0902', name: 'Arts et Métiers 2', centre: [2.3585, 48.8668] },
    { iris: '1001', name: 'Enfants Rouges 1', centre: [2.3615, 48.8628] },
    { iris: '1002', name: 'Enfants Rouges 2', centre: [2.3645, 48.8652] },
    { iris: '1101', name: 'Archives 1', centre: [2.3595, 48.8603] },
    { iris: '1102', name: 'Archives 2', centre: [2.3648, 48.8588] },
    { iris: '1201', name: 'Sainte-Avoye 1', centre: [2.3525, 48.8632] },
    { iris: '1202', name: 'Sainte-Avoye 2', centre: [2.3555, 48.8618] },
  ],
  '75104': [
    { iris: '1301', name: 'Saint-Merri 1', centre: [2.3505, 48.8598] },
    { iris: '1302', name: 'Saint-Merri 2', centre: [2.3515, 48.8575] },
    { iris: '1401', name: 'Saint-Gervais 1', centre: [2.3555, 48.8578] },
    { iris: '1402', name: 'Saint-Gervais 2', centre: [2.3595, 48.8565] },
    { iris: '1501', name: 'Arsenal 1', centre: [2.3645, 48.8548] },
    { iris: '1502', name: 'Arsenal 2', centre: [2.3635, 48.8518] },
    { iris: '1503', name: 'Arsenal 3', centre: [2.3672, 48.8502] },
    { iris: '1601', name: 'Notre-Dame 1', centre: [2.349, 48.8535] },
    { iris: '1602', name: 'Notre-Dame 2', centre: [2.3565, 48.8515] },
  ],
  '75111': [
    { iris: '4101', name: 'Folie Méricourt 1', centre: [2.3685, 48.8665] },
    { iris: '4102', name: 'Folie Méricourt 2', centre: [2.372, 48.8685] },
    { iris: '4103', name: 'Folie Méricourt 3', centre: [2.3715, 48.8645] },
    { iris: '4201', name: 'Saint-Ambroise 1', centre: [2.3775, 48.8635] },
    { iris: '4202', name: 'Saint-Ambroise 2', centre: [2.3835, 48.8625] },
    { iris: '4203', name: 'Saint-Ambroise 3', centre: [2.3745, 48.8605] },
    { iris: '4301', name: 'Roquette 1', centre: [2.3725, 48.8555] },
    { iris: '4302', name: 'Roquette 2', centre: [2.3785, 48.8575] },
    { iris: '4303', name: 'Roquette 3', centre: [2.3865, 48.8585] },
    { iris: '4401', name: 'Sainte-Marguerite 1', centre: [2.3805, 48.8525] },
    { iris: '4402', name: 'Sainte-Marguerite 2', centre: [2.3875, 48.854] },
    { iris: '4403', name: 'Sainte-Marguerite 3', centre: [2.3925, 48.8515] },
  ],
  '75112': [
    { iris: '4501', name: 'Bel Air Nord 1', centre: [2.4035, 48.8445] },
    { iris: '4502', name: 'Bel Air Sud 1', centre: [2.402, 48.838] },
    { iris: '4503', name: 'Bel Air Sud 2', centre: [2.44, 48.833] },
    { iris: '4601', name: 'Picpus 1', centre: [2.3935, 48.845] },
    { iris: '4602', name: 'Picpus 2', centre: [2.3925, 48.8395] },
    { iris: '4701', name: 'Bercy 1', centre: [2.3855, 48.8355] },
    { iris: '4702', name: 'Bercy 2', centre: [2.3795, 48.8405] },
    { iris: '4801', name: 'Quinze-Vingts 1', centre: [2.3735, 48.8505] },
    { iris: '4802', name: 'Quinze-Vingts 2', centre: [2.3765, 48.8465] },
    { iris: '4803', name: 'Quinze-Vingts 3', centre: [2.3835, 48.8475] },
  ],
  '75113': [
    { iris: '4901', name: 'Salpêtrière 1', centre: [2.3635, 48.8385] },
    { iris: '4902', name: 'Salpêtrière 2', centre: [2.3595, 48.8345] },
    { iris: '5001', name: 'Gare 1', centre: [2.3735, 48.8345] },
    { iris: '5002', name: 'Gare 2', centre: [2.3695, 48.8285] },
    { iris: '5003', name: 'Gare 3', centre: [2.3745, 48.8235] },
    { iris: '5101', name: 'Maison Blanche 1', centre: [2.3595, 48.8235] },
    { iris: '5102', name: 'Maison Blanche 2', centre: [2.3525, 48.8215] },
    { iris: '5112', name: 'Maison Blanche 12', centre: [2.3545, 48.8275] },
    { iris: '5201', name: 'Croulebarbe 1', centre: [2.3485, 48.8345] },
    { iris: '5202', name: 'Croulebarbe 2', centre: [2.3455, 48.8305] },
  ],
};

export const DEMO_ARRONDISSEMENTS = Object.keys(DEMO_IRIS);

/** IRIS list of any arrondissement: the demo ones above, one IRIS (first quarter) elsewhere. */
export function irisOf(arm: string): IrisCentre[] {
  if (DEMO_IRIS[arm]) return DEMO_IRIS[arm];
  const [num, name] = QUARTIERS[arm][0];
  return [{ iris: `${String(num).padStart(2, '0')}01`, name: `${name} 1`, centre: ANCHORS[arm][0] }];
}
