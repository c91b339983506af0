import type { FieldDef } from '../types.ts';

/** Fields of the risks domain in France (spec 2.10; issue 15) and what backs them. */
export const RISKS_FIELDS: FieldDef[] = [
  { id: 'risks.hazards', domain: 'risks', label: { fr: 'Aléas naturels', en: 'Natural hazards' }, unit: null, sources: ['fr.radon', 'fr.seismic', 'fr.clay'], table: 'zone_values', countries: ['fr'],
    definition: {
      fr: 'Aléas naturels du point sur l’échelle commune (very_low à very_high), du plus élevé au plus faible: potentiel radon de la commune (IRSN; à l’arrondissement à Paris, Lyon, Marseille) et zone sismique réglementaire, de portée locality (risque connu dans la commune). Les niveaux et leur correspondance avec les classes des producteurs: GET /catalog/hazards. Retrait-gonflement des argiles (BRGM): zone d’exposition contenant le point, portée building quand le bâtiment est connu, sinon point; non servi pour une position connue à la rue ou à la commune (insufficient_precision), non évalué hors zone.',
      en: 'Natural hazards of the point on the common scale (very_low to very_high), highest first: radon potential of the commune (IRSN; by arrondissement in Paris, Lyon, Marseille) and regulatory seismic zone, scope locality (risk known in the commune). Levels and their mapping from the producers’ classes: GET /catalog/hazards. Clay shrink-swell (BRGM): the exposure zone containing the point, scope building when the building is known, else point; not served for a position known only to the street or commune (insufficient_precision), not assessed outside the zones.',
    } },
  { id: 'risks.summary', domain: 'risks', label: { fr: 'Synthèse des risques', en: 'Risk summary' }, unit: null, sources: [], table: null, countries: ['fr'],
    definition: { fr: 'Niveau le plus élevé, aléas notables (modéré et au-dessus), types évalués et non évalués ici; calculé à partir de hazards.', en: 'Highest level, notable hazards (moderate and above), types assessed and not assessed here; computed from hazards.' } },
  { id: 'risks.not_assessed', domain: 'risks', label: { fr: 'Aléas non évalués', en: 'Hazards not assessed' }, unit: null, sources: [], table: null, countries: ['fr'],
    definition: { fr: 'Types d’aléas non évalués ici (en France: inondation, mouvement de terrain, érosion côtière, feu de forêt); l’absence de zone n’est pas l’absence de risque.', en: 'Hazard types not assessed here (in France: flood, landslide, coastal erosion, wildfire); absence of zone is not absence of risk.' } },
  { id: 'risks.obligations.brush_clearing', domain: 'risks', label: { fr: 'Obligation légale de débroussaillement', en: 'Brush-clearing obligation' }, unit: null, sources: [], table: 'zone_values', countries: ['fr'],
    definition: { fr: 'Le point est dans une zone soumise à l’obligation légale de débroussaillement: source non encore intégrée.', en: 'The point lies in a zone under the legal brush-clearing obligation: source not ingested yet.' } },
  { id: 'risks.polluted_sites', domain: 'risks', label: { fr: 'Sites et sols pollués', en: 'Polluted sites' }, unit: null, sources: [], table: 'points', countries: ['fr'],
    definition: { fr: 'Anciens sites industriels (CASIAS), sols pollués (BASOL) et secteurs d’information sur les sols (SIS) autour du point: source non encore intégrée.', en: 'Former industrial sites (CASIAS), contaminated land (BASOL) and soil information areas (SIS) around the point: source not ingested yet.' } },
];
