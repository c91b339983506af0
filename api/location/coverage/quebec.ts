/**
 * APPROXIMATE outline of the province of Quebec, hand-built.
 *
 * Why hand-built: `world-atlas` ships Natural Earth *admin-0* (countries) only.
 * No npm package shipping Natural Earth *admin-1* (states/provinces) data could
 * be found (the registry's search endpoint was not reachable from this
 * workplace; the one package found carrying a Quebec outline, `world-geojson`,
 * is GPL-3.0 licensed, derived from OpenStreetMap and self-described as "low
 * quality", so it was not adopted — see the module report).
 *
 * How it is used: coverage for 'ca' is `inside Canada's Natural Earth outline
 * (with coastal tolerance) AND inside this polygon`. This polygon therefore only
 * needs to be precise where Quebec meets ANOTHER CANADIAN jurisdiction
 * (Ontario, New Brunswick, Newfoundland-and-Labrador, Nunavut's islands, PEI,
 * Nova Scotia). Along the US border and the open sea it deliberately bulges
 * outwards (into the USA / the sea) and lets the Canada outline do the cut.
 *
 * Vertices are [lng, lat] (WGS84), listed counter-clockwise-ish starting in the
 * USA south of the Ontario/Quebec/New York tripoint. Confidence per section:
 *
 *  - Ontario border, St Lawrence -> Ottawa River: straight land line from Lake
 *    Saint-François (~74.4°W) to Pointe-Fortune (45.56N, 74.38W). Good (~1 km).
 *  - Ontario border along the Ottawa River (centre line, via towns on either
 *    bank: Hawkesbury/Grenville, Rockland/Thurso, Ottawa/Gatineau, Pembroke/
 *    Allumettes, Mattawa, Témiscaming): good near towns (~0.5-1 km), a few km
 *    between them.
 *  - Lake Timiskaming then the meridian ~79.517°W due north to James Bay: good.
 *  - James Bay / Hudson Bay / Hudson Strait / Ungava Bay: an offshore line a
 *    few km to ~20 km off the coast. All islands in those bays belong to
 *    Nunavut; near-shore islands (Manitounuk, Nastapoka, ...) may wrongly be
 *    counted as Quebec. Coarse (±10-20 km), very sparsely populated.
 *  - Labrador border (height of land): COARSE (±20-30 km) except at Fermont /
 *    Labrador City and Schefferville (anchored between the towns), and the
 *    52nd parallel + 57.107°W meridian down to Blanc-Sablon (good).
 *  - Gulf of St Lawrence: offshore line keeping Anticosti and the Magdalen
 *    Islands, excluding Newfoundland, PEI and Cape Breton. Good enough.
 *  - New Brunswick border: Chaleur Bay centre line, Restigouche River, the
 *    ~48°N line and the Edmundston/Dégelis line. Moderate (±2-5 km).
 *  - USA (Maine, NH, VT, NY): bulges south on purpose; the Canada outline cuts.
 */
export const QUEBEC_APPROX_RING: ReadonlyArray<readonly [number, number]> = [
  // --- South, inside the USA (cut by the Canada outline) ---
  [-74.62, 44.5],
  [-69.5, 44.5],
  [-69.05, 47.3], // near the Quebec / New Brunswick / Maine tripoint (St. Francis River)
  // --- New Brunswick border ---
  [-68.4, 47.5], // between Dégelis (QC) and Edmundston (NB)
  [-68.38, 47.92],
  [-67.75, 47.95],
  [-67.1, 47.92],
  [-66.95, 47.965], // Restigouche River at Matapédia
  [-66.8, 47.995],
  [-66.675, 48.012], // Campbellton (NB) / Pointe-à-la-Croix (QC)
  [-66.36, 48.073], // Dalhousie (NB) / Miguasha (QC)
  [-66.0, 48.02], // Chaleur Bay centre line
  [-65.5, 47.93],
  [-65.0, 47.98],
  [-64.5, 48.2], // between Miscou Island (NB) and Gaspé south shore
  // --- Gulf of St Lawrence (sea; keeps the Magdalen Islands) ---
  [-63.0, 47.15], // north of PEI
  [-61.0, 47.1], // between the Magdalens and Cape Breton
  [-60.9, 47.95],
  [-60.5, 48.3], // west of Newfoundland (Cape Anguille)
  [-59.8, 49.0],
  [-59.0, 50.0],
  [-58.0, 50.9],
  [-57.107, 51.3], // Strait of Belle Isle, south of Blanc-Sablon
  // --- Labrador border ---
  [-57.107, 52.0], // meridian north from Blanc-Sablon to the 52nd parallel
  [-63.7, 52.0], // 52nd parallel west to the Romaine River area
  [-64.2, 52.1],
  [-65.3, 52.2],
  [-66.3, 52.3],
  [-66.9, 52.6],
  [-67.0, 52.85], // between Fermont (QC) and Labrador City (NL)
  [-67.3, 53.2],
  [-67.6, 53.6],
  [-67.8, 54.2], // westernmost Labrador
  [-67.2, 54.6],
  [-66.75, 54.82], // just east of Schefferville / Kawawachikamach
  [-66.6, 55.1],
  [-66.0, 55.4],
  [-65.5, 56.0],
  [-64.9, 56.8],
  [-64.3, 57.6],
  [-63.71, 58.71], // Mont D'Iberville / Caubvick, on the border
  [-64.0, 59.5],
  [-64.6, 60.25], // Killiniq / Cape Chidley area
  // --- Ungava Bay, Hudson Strait, Hudson Bay, James Bay (offshore line) ---
  [-65.2, 59.6],
  [-66.0, 58.95],
  [-67.5, 58.6],
  [-68.5, 58.6],
  [-69.3, 58.8],
  [-69.45, 59.3],
  [-69.6, 60.0],
  [-69.3, 60.6],
  [-69.4, 61.2], // Quaqtaq
  [-70.5, 61.4],
  [-72.0, 61.95],
  [-74.0, 62.45],
  [-75.5, 62.45],
  [-77.5, 62.65], // Ivujivik
  [-78.1, 62.45],
  [-78.4, 60.8], // Akulivik
  [-77.8, 60.0], // Puvirnituq
  [-78.3, 58.5], // Inukjuak
  [-77.0, 57.5],
  [-76.7, 56.5], // Umiujaq
  [-77.95, 55.3], // Kuujjuarapik
  [-79.9, 54.6], // Cape Jones
  [-79.3, 53.8], // Chisasibi
  [-79.05, 53.0], // Wemindji
  [-79.1, 52.2], // Eastmain
  [-79.15, 51.7],
  [-79.517, 51.47], // Ontario border reaches James Bay
  // --- Ontario border: meridian, Lake Timiskaming, Ottawa River ---
  [-79.517, 47.55], // head of Lake Timiskaming
  [-79.53, 47.4],
  [-79.45, 47.2],
  [-79.28, 47.0],
  [-79.11, 46.72], // Témiscaming
  [-78.95, 46.6],
  [-78.75, 46.42],
  [-78.69, 46.32], // Mattawa
  [-78.28, 46.265], // Deux-Rivières
  [-77.9, 46.225],
  [-77.7, 46.19], // Rolphton / Rapides-des-Joachims
  [-77.49, 46.115], // Deep River
  [-77.4, 46.0],
  [-77.25, 45.925],
  [-77.1, 45.832], // Pembroke / Allumettes Island
  [-76.95, 45.8],
  [-76.8, 45.7],
  [-76.66, 45.59], // Portage-du-Fort
  [-76.45, 45.5],
  [-76.24, 45.48], // Chats Falls
  [-76.1, 45.46],
  [-75.95, 45.4],
  [-75.85, 45.38],
  [-75.8, 45.375], // Deschênes rapids
  [-75.73, 45.415],
  [-75.722, 45.419], // Chaudière
  [-75.706, 45.426], // Parliament Hill (ON) / Museum of History (QC)
  [-75.695, 45.445], // Rideau Falls
  [-75.646, 45.468], // Rockcliffe
  [-75.49, 45.512], // Petrie Island
  [-75.4, 45.53], // Cumberland / Masson-Angers
  [-75.29, 45.565], // Rockland
  [-75.25, 45.585], // Thurso
  [-75.12, 45.59],
  [-75.02, 45.605], // Papineauville
  [-74.94, 45.645], // Montebello
  [-74.85, 45.645],
  [-74.7, 45.635], // L'Orignal
  [-74.6, 45.617], // Hawkesbury (ON) / Grenville (QC)
  [-74.5, 45.59],
  [-74.39, 45.56], // Pointe-Fortune
  [-74.36, 45.2], // land line to Lake Saint-François
  [-74.4, 45.17],
  [-74.62, 45.01], // St Lawrence, Ontario / Quebec / New York
  // (closed back to the first vertex by the loader)
];
