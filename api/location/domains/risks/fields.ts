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
  { id: 'risks.obligations.brush_clearing', domain: 'risks', label: { fr: 'Obligation légale de débroussaillement', en: 'Brush-clearing obligation' }, unit: null, sources: ['fr.brush-clearing'], table: 'hazard_areas', countries: ['fr'],
    definition: { fr: 'Le point est dans une zone du zonage informatif des obligations légales de débroussaillement (OLD): true dedans, false dehors; non servi pour une position connue à la rue ou à la commune (insufficient_precision).', en: 'The point lies in a zone of the informative zoning of the legal brush-clearing obligations (OLD): true inside, false outside; not served for a position known only to the street or the commune (insufficient_precision).' } },
  { id: 'risks.polluted_sites', domain: 'risks', label: { fr: 'Sites et sols pollués', en: 'Polluted sites' }, unit: null, sources: ['fr.polluted-sites', 'fr.sis'], table: 'polluted_sites', countries: ['fr'],
    definition: { fr: 'Sites dans le rayon (radius, 100 à 2000 m, 500 par défaut): nombre par type, et les 10 plus proches avec type, statut, nom, adresse, distance et date. Anciens sites industriels (CASIAS/BASIAS), sols pollués (BASOL) et secteurs d’information sur les sols (SIS, distance au centre du secteur) servis; inside: les SIS contenant le point (non servi pour une position connue à la rue ou à la commune); un type dont la source n’est pas intégrée a un nombre null (unavailable); suspected_land est null (not_covered): aucun producteur ne publie en France de registre des terrains suspectés (BASOL: sites appelant une action publique, contaminated_land).', en: 'Sites within the radius (radius, 100 to 2000 m, default 500): count per type, and the 10 nearest with type, status, name, address, distance and date. Former industrial sites (CASIAS/BASIAS), contaminated land (BASOL) and soil information areas (SIS, distance to the area’s centre) served; inside: the SIS containing the point (not served for a position known only to the street or the commune); a type whose source is not ingested has a null count (unavailable); suspected_land is null (not_covered): no French producer publishes a register of suspected land (BASOL: sites calling for public action, contaminated_land).' } },
];

/** Fields of the risks domain in Quebec (spec 2.10; issue 15). */
RISKS_FIELDS.push(
  { id: 'risks.hazards', domain: 'risks', label: { fr: 'Aléas naturels', en: 'Natural hazards' }, unit: null, sources: ['ca.flood-zones', 'ca.landslide', 'ca.coastal-erosion'], table: 'hazard_areas', countries: ['ca'],
    definition: {
      fr: 'Aléas des secteurs cartographiés contenant le point, du plus élevé au plus faible, portée point: zones inondables (récurrence 0-20 ans: high; 20-100 ans: moderate; sans récurrence: present), zones de contraintes relatives aux glissements de terrain et à l’érosion côtière (present). Hors secteur, le type est non évalué: l’absence de zone n’est pas l’absence de risque. Non servi pour une position connue à la rue ou à la municipalité (insufficient_precision).',
      en: 'Hazards of the mapped sectors containing the point, highest first, scope point: flood zones (0-20 year return period: high; 20-100 years: moderate; no return period: present), landslide and coastal-erosion constraint zones (present). Outside the sectors the type is not assessed: absence of zone is not absence of risk. Not served for a position known only to the street or the municipality (insufficient_precision).',
    } },
  { id: 'risks.summary', domain: 'risks', label: { fr: 'Synthèse des risques', en: 'Risk summary' }, unit: null, sources: [], table: null, countries: ['ca'],
    definition: { fr: 'Niveau le plus élevé, aléas notables (modéré et au-dessus, present compris), types évalués et non évalués ici; calculé à partir de hazards.', en: 'Highest level, notable hazards (moderate and above, present included), types assessed and not assessed here; computed from hazards.' } },
  { id: 'risks.not_assessed', domain: 'risks', label: { fr: 'Aléas non évalués', en: 'Hazards not assessed' }, unit: null, sources: [], table: null, countries: ['ca'],
    definition: { fr: 'Types d’aléas dont aucun secteur cartographié ne contient le point: l’absence de zone n’est pas l’absence de risque.', en: 'Hazard types no mapped sector of which contains the point: absence of zone is not absence of risk.' } },
  { id: 'risks.polluted_sites', domain: 'risks', label: { fr: 'Terrains contaminés', en: 'Contaminated land' }, unit: null, sources: ['ca.contaminated-land'], table: 'polluted_sites', countries: ['ca'],
    definition: {
      fr: 'Terrains du Répertoire des terrains contaminés dans le rayon (radius, 100 à 2000 m, 500 par défaut): nombre, et les 10 plus proches avec statut (réhabilitation initiée: under_treatment; non débutée ou non nécessaire: confirmed; terminée: remediated; sinon unknown), adresse, distance et date de la dernière fiche. Le Répertoire ne nomme pas les terrains (name null) et publie un point par terrain, pas la parcelle (inside null).',
      en: 'Sites of the Répertoire des terrains contaminés within the radius (radius, 100 to 2000 m, default 500): count, and the 10 nearest with status (rehabilitation started: under_treatment; not started or not required: confirmed; completed: remediated; else unknown), address, distance and date of the latest file. The Répertoire names no site (name null) and publishes one point per site, not the parcel (inside null).',
    } },
);

/** Fields of the risks domain in Belgium (spec 2.10; issue 15): the Brussels-Capital Region only. */
const BRUSSELS = ['Région de Bruxelles-Capitale / Brussels Hoofdstedelijk Gewest'];
RISKS_FIELDS.push(
  { id: 'risks.hazards', domain: 'risks', label: { fr: 'Aléas naturels', en: 'Natural hazards' }, unit: null, sources: ['be.brussels-flood'], table: 'hazard_areas', countries: ['be'], territories: BRUSSELS,
    definition: {
      fr: 'Aléa d’inondation de la zone de la carte de Bruxelles Environnement contenant le point (aléa faible, moyen, élevé: low, moderate, high), portée point; hors zone, non évalué (l’absence de zone n’est pas l’absence de risque). Région de Bruxelles-Capitale seulement: ailleurs le domaine répond not_covered.',
      en: 'Flood hazard of the zone of Bruxelles Environnement’s map containing the point (low, medium, high hazard: low, moderate, high), scope point; outside the zones, not assessed (absence of zone is not absence of risk). Brussels-Capital Region only: elsewhere the domain answers not_covered.',
    } },
  { id: 'risks.summary', domain: 'risks', label: { fr: 'Synthèse des risques', en: 'Risk summary' }, unit: null, sources: [], table: null, countries: ['be'], territories: BRUSSELS,
    definition: { fr: 'Niveau le plus élevé, aléas notables (modéré et au-dessus), types évalués et non évalués ici; calculé à partir de hazards.', en: 'Highest level, notable hazards (moderate and above), types assessed and not assessed here; computed from hazards.' } },
  { id: 'risks.not_assessed', domain: 'risks', label: { fr: 'Aléas non évalués', en: 'Hazards not assessed' }, unit: null, sources: [], table: null, countries: ['be'], territories: BRUSSELS,
    definition: { fr: 'Types d’aléas dont aucune zone cartographiée ne contient le point.', en: 'Hazard types no mapped zone of which contains the point.' } },
  { id: 'risks.polluted_sites', domain: 'risks', label: { fr: 'État du sol', en: 'Soil status' }, unit: null, sources: ['be.brussels-soil'], table: 'polluted_sites', countries: ['be'], territories: BRUSSELS,
    definition: {
      fr: 'Parcelles de l’inventaire de l’état du sol (Bruxelles Environnement) contenant le point (inside, à signaler à un acquéreur) et dans le rayon (radius, 100 à 2000 m, 500 par défaut: nombre par type, les 10 plus proches, distance au centre de la parcelle). Catégorie 0: suspected_land, suspected; 2 et 3: contaminated_land, confirmed; 4: contaminated_land, under_treatment; une parcelle reconnue non polluée (catégorie 1) n’est jamais servie.',
      en: 'Parcels of the soil-status inventory (Bruxelles Environnement) containing the point (inside, to be reported to a buyer) and within the radius (radius, 100 to 2000 m, default 500: count per type, the 10 nearest, distance to the parcel’s centre). Category 0: suspected_land, suspected; 2 and 3: contaminated_land, confirmed; 4: contaminated_land, under_treatment; a parcel recognised as unpolluted (category 1) is never served.',
    } },
);
