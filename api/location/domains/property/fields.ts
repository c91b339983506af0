import type { FieldDef } from '../types.ts';

type Def = [id: string, fr: [string, string], en: [string, string], unit: string | null, sources: string[], table: string];
const DEFS: Def[] = [
  ['property.id', ['Identifiant du bien', "Identifiant prp_ stable du service: un appartement par les lots de l'acte, une maison par ses parcelles, un logement par son diagnostic"], ['Property identifier', "The service's stable prp_ identifier: a flat by the lots of its deed, a house by its parcels, a dwelling by its diagnosis"], null, ['fr.properties'], 'properties'],
  ['property.events', ['Vie du bien', 'Ventes (DVF) et diagnostics (DPE) rattachés, sûrs (lot ou logement désigné) ou probables (surface à 3 %), avec la raison'], ['Life of the property', 'Sales (DVF) and diagnoses (DPE) attached, sure (lot or dwelling named) or probable (surface within 3 %), with the reason'], null, ['fr.properties', 'fr.dvf', 'fr.dpe'], 'property_events'],
  ['property.energy', ['Diagnostic énergétique', 'Dernier DPE rattaché au bien'], ['Energy diagnosis', 'Latest DPE attached to the property'], null, ['fr.dpe'], 'diagnoses'],
  ['property.value_today', ['Valeur estimée', "Dernier prix de vente porté à aujourd'hui par l'indice trimestriel du prix médian au m² de la zone la plus fine publiée (indexed_last_sale); indicatif"], ['Estimated value', 'Last sale price carried to today by the quarterly median price per m2 index of the finest published zone (indexed_last_sale); indicative'], 'EUR', ['fr.dvf'], 'market_indicators'],
  ['property.vs_sublocality_level2', ["Écart à l'IRIS", "Écart en % entre la valeur estimée au m² et la médiane sur 24 mois de l'IRIS"], ['Difference to the IRIS', 'Percent difference between the estimated value per m2 and the 24-month IRIS median'], '%', ['fr.dvf'], 'market_indicators'],
  ['property.story', ['Histoire', 'Une phrase tirée des événements du bien'], ['Story', 'One sentence from the events of the property'], null, ['fr.properties'], 'property_events'],
];

/** Fields of data.property in France and what backs them (catalog). */
export const PROPERTY_FIELDS: FieldDef[] = DEFS.map(([id, fr, en, unit, sources, table]) => ({
  id, domain: 'property', label: { fr: fr[0], en: en[0] }, definition: { fr: fr[1], en: en[1] }, unit, sources, table, countries: ['fr'],
}));
