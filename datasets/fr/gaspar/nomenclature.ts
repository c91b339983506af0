import type { HazardType } from '../../../schemas/hazard.ts';

/**
 * GASPAR's nomenclature of risks (the `num_risque` codes of risq_gaspar.csv with their published
 * French labels; families of two digits, kinds of three), an English label of ours, and the
 * hazard type of spec 2.5 a kind concerns, where one does: flood for the flood kinds, landslide
 * for slides and rockfalls, coastal_erosion for the retreat of the coastline, clay_shrink_swell
 * for "tassements différentiels" (GASPAR's name of clay shrink-swell), seismic, wildfire, radon.
 * Families that span several types (12, ground movement) and technological risks have none.
 */
export const GASPAR_RISKS: Record<string, { fr: string; en: string; type: HazardType | null }> = {
  11: { fr: 'Inondation', en: 'Flood', type: 'flood' },
  12: { fr: 'Mouvement de terrain', en: 'Ground movement', type: null },
  13: { fr: 'Séisme', en: 'Earthquake', type: 'seismic' },
  14: { fr: 'Avalanche', en: 'Avalanche', type: null },
  15: { fr: 'Eruption volcanique', en: 'Volcanic eruption', type: null },
  16: { fr: 'Feu de forêt', en: 'Wildfire', type: 'wildfire' },
  17: { fr: "Phénomène lié à l'atmosphère", en: 'Atmospheric phenomenon', type: null },
  18: { fr: 'Radon', en: 'Radon', type: 'radon' },
  21: { fr: 'Risque industriel', en: 'Industrial risk', type: null },
  22: { fr: 'Nucléaire', en: 'Nuclear', type: null },
  23: { fr: 'Rupture de barrage', en: 'Dam failure', type: null },
  24: { fr: 'Transport de marchandises dangereuses', en: 'Transport of dangerous goods', type: null },
  25: { fr: 'Engins de guerre', en: 'Unexploded ordnance', type: null },
  31: { fr: 'Affaissement minier', en: 'Mining subsidence', type: null },
  32: { fr: 'Inondations de terrains miniers', en: 'Flooding of mining land', type: null },
  33: { fr: 'Emissions en surface de gaz de mine', en: 'Surface emissions of mine gas', type: null },
  34: { fr: 'Echauffement des terrains de dépôts', en: 'Heating of spoil heaps', type: null },
  112: { fr: "Par une crue à débordement lent de cours d'eau", en: 'Slow river overflow', type: 'flood' },
  113: { fr: "Par une crue torrentielle ou à montée rapide de cours d'eau", en: 'Torrential or fast-rising river flood', type: 'flood' },
  114: { fr: 'Par ruissellement et coulée de boue', en: 'Runoff and mudflow', type: 'flood' },
  115: { fr: 'Par lave torrentielle (torrent et talweg)', en: 'Debris flow', type: 'flood' },
  116: { fr: 'Par remontées de nappes naturelles', en: 'Rising groundwater', type: 'flood' },
  117: { fr: 'Par submersion marine', en: 'Marine submersion', type: 'flood' },
  121: { fr: "Affaissements et effondrements d'origine anthropique (anciennes carrières souterraines, hors mines)", en: 'Man-made subsidence and collapse (old underground quarries)', type: null },
  122: { fr: "Affaissements et effondrements d'origine naturelle (cavités souterraines)", en: 'Natural subsidence and collapse (underground cavities)', type: null },
  123: { fr: 'Eboulement ou chutes de pierres et de blocs', en: 'Rockfall', type: 'landslide' },
  124: { fr: 'Glissement de terrain', en: 'Landslide', type: 'landslide' },
  125: { fr: 'Avancée dunaire', en: 'Dune advance', type: null },
  126: { fr: 'Recul du trait de côte et de falaises', en: 'Retreat of the coastline and cliffs', type: 'coastal_erosion' },
  127: { fr: 'Tassements différentiels', en: 'Differential settlement (clay shrink-swell)', type: 'clay_shrink_swell' },
  171: { fr: 'Cyclone / Ouragan (vent)', en: 'Cyclone / hurricane (wind)', type: null },
  172: { fr: 'Tempête et grains (vent)', en: 'Storm and squalls (wind)', type: null },
  174: { fr: 'Foudre', en: 'Lightning', type: null },
  175: { fr: 'Grêle', en: 'Hail', type: null },
  176: { fr: 'Neige et pluies verglaçantes', en: 'Snow and freezing rain', type: null },
  211: { fr: 'Effet thermique', en: 'Thermal effect', type: null },
  212: { fr: 'Effet de surpression', en: 'Overpressure effect', type: null },
  213: { fr: 'Effet toxique', en: 'Toxic effect', type: null },
  214: { fr: 'Effet de projection', en: 'Projection effect', type: null },
  311: { fr: 'Effondrements généralisés', en: 'Widespread collapse', type: null },
  312: { fr: 'Effondrements localisés', en: 'Localised collapse', type: null },
  313: { fr: 'Affaissements progressifs', en: 'Progressive subsidence', type: null },
  314: { fr: 'Tassements', en: 'Settlement', type: null },
  315: { fr: 'Glissements ou mouvements de pente', en: 'Slides or slope movements', type: null },
  316: { fr: 'Coulées', en: 'Flows', type: null },
  317: { fr: 'Ecroulements rocheux', en: 'Rock collapses', type: null },
  321: { fr: 'Pollution des eaux souterraines et de surface', en: 'Pollution of ground and surface water', type: null },
  322: { fr: 'Pollution des sédiments et sols', en: 'Pollution of sediments and soils', type: null },
  AUTRE: { fr: 'Autre risque', en: 'Other risk', type: null },
};
