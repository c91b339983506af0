import { RELIABILITY_THRESHOLDS as T } from '../../../../schemas/tables/market-indicators.ts';
import type { FieldDef } from '../types.ts';

const DVF = ['fr.dvf', 'fr.dvf-dgfip'];
/** DVF is published everywhere in France except these departments (spec 1). */
export const NOT_COVERED_DEPARTMENTS = ['57', '67', '68', '976'];
const TERRITORIES = ['metropolitan France except Alsace-Moselle (57, 67, 68)', 'overseas departments except Mayotte (976)'];

const reliability = {
  fr: `Fiabilité selon le nombre de ventes: high à partir de ${T.high}, medium à partir de ${T.medium}, low à partir de ${T.low}; en dessous, aucune valeur (insufficient_sample). La zone servie est la plus fine dont la valeur est medium ou high (rayon, IRIS, arrondissement, commune, département, région), sinon la plus fine publiée.`,
  en: `Reliability from the number of sales: high from ${T.high}, medium from ${T.medium}, low from ${T.low}; below, no value (insufficient_sample). The zone served is the finest whose value is medium or high (radius, IRIS, arrondissement, commune, department, region), else the finest published one.`,
};

/** Fields of the France market domain (spec 2.9) and what backs them. */
export const MARKET_FIELDS: FieldDef[] = [
  { id: 'market.sales_nearby.count', domain: 'market', label: { fr: 'Ventes autour', en: 'Sales around' }, unit: 'count', sources: DVF, table: 'sales', countries: ['fr'], territories: TERRITORIES,
    definition: { fr: "Nombre de ventes (mutations DVF, une par acte quel que soit le nombre de lignes publiées) dans le rayon, sur toutes les années tenues; property_type restreint au type.", en: 'Number of sales (DVF mutations, one per deed whatever the number of published lines) within the radius, over all years held; property_type restricts to the type.' } },
  { id: 'market.sales_nearby.median_price_per_m2', domain: 'market', label: { fr: 'Prix médian au m²', en: 'Median price per m²' }, unit: 'EUR/m2', sources: DVF, table: 'market_indicators', countries: ['fr'], territories: TERRITORIES,
    definition: { fr: `Médiane du prix au m² des ventes de marché (Vente, VEFA) d'un seul logement sur 24 mois jusqu'à la dernière vente publiée: valeur foncière divisée par la surface réelle bâtie du logement, dépendances exclues; les ventes de plusieurs logements, de terrains ou de locaux ne comptent pas. range: premier et troisième quartiles. ${reliability.fr}`, en: `Median price per m² of market sales (Vente, VEFA) of one dwelling over the 24 months up to the latest published sale: sale value divided by the dwelling's built surface, outbuildings excluded; sales of several dwellings, of land or of premises do not count. range: first and third quartiles. ${reliability.en}` } },
  { id: 'market.sales_nearby.items', domain: 'market', label: { fr: 'Ventes les plus proches', en: 'Nearest sales' }, unit: null, sources: DVF, table: 'sales', countries: ['fr'], territories: TERRITORIES,
    definition: { fr: "Ventes dans le rayon, de la plus proche à la plus lointaine (centre de la parcelle publié par Etalab); same_parcel: la vente inclut la parcelle de l'adresse. Liste complète paginée: /market/sales.", en: "Sales within the radius, nearest first (centre of the parcel published by Etalab); same_parcel: the sale includes the parcel of the address. Full paginated list: /market/sales." } },
  { id: 'market.price_trend', domain: 'market', label: { fr: 'Évolution des prix', en: 'Price trend' }, unit: 'EUR/m2', sources: DVF, table: 'market_indicators', countries: ['fr'], territories: TERRITORIES,
    definition: { fr: `Médiane annuelle du prix au m² (mêmes ventes que la médiane) de la zone la plus fine fiable ayant au moins deux années publiées; changes: évolution en % de la dernière année sur un an, sur cinq ans et depuis la première année publiée. La dernière année peut être partielle (period.end). ${reliability.fr}`, en: `Yearly median price per m² (same sales as the median) of the finest reliable zone with at least two published years; changes: percent change of the last year over one year, five years and since the first published year. The last year may be partial (period.end). ${reliability.en}` } },
  { id: 'market.rent_estimate', domain: 'market', label: { fr: 'Loyer estimé', en: 'Rent estimate' }, unit: 'EUR/m2/month', sources: ['fr.rents'], table: 'zone_values', countries: ['fr'],
    definition: { fr: "per_m2: loyer d'annonce prédit au m² charges comprises (carte des loyers, ANIL / DHUP) du type de bien demandé (property_type), sinon du type le plus vendu autour du point, sinon des appartements; range: intervalle de prévision à 95 %; sample_size: annonces observées dans la commune ou la maille; fiabilité high pour une prédiction communale d'un modèle de R² ajusté >= 0,5, medium pour une prédiction de maille, low si R² < 0,5. Servi à l'arrondissement municipal, sinon à la commune. change_1y: évolution en % sur l'édition précédente quand elle est intégrée. monthly: attend la surface du bien.", en: "per_m2: predicted advertised rent per m², charges included (rent map, ANIL / DHUP) of the property type asked (property_type), else the type most sold around the point, else apartments; range: 95 % prediction interval; sample_size: adverts observed in the commune or its group of communes; reliability high for a commune-level prediction of a model with adjusted R² >= 0.5, medium for a group-of-communes prediction, low when R² < 0.5. Served at the municipal arrondissement, else the commune. change_1y: percent change from the previous edition when ingested. monthly: waits for the property's surface." } },
  { id: 'market.gross_yield', domain: 'market', label: { fr: 'Rendement brut', en: 'Gross yield' }, unit: '%', sources: [], table: 'zone_values', countries: ['fr'],
    definition: { fr: 'Loyer annuel rapporté au prix: non encore calculé.', en: 'Yearly rent over price: not computed yet (waits for a common zone of rents and prices).' } },
  { id: 'market.regulation', domain: 'market', label: { fr: 'Réglementation', en: 'Regulation' }, unit: null, sources: ['fr.abc-zoning', 'fr.tlv-zoning', 'fr.rent-control'], table: 'zone_values', countries: ['fr'],
    definition: { fr: "De la commune du point (de l'arrondissement quand une liste le nomme): abc_zone, la zone du zonage ABC en vigueur (Abis, A, B1, B2, C, de la plus tendue à la moins tendue; liste du ministère chargé du logement); tense_zone, vrai en zone tendue du zonage TLV (classe 1 tendue ou 2 tendue et touristique; tense_zone_class donne la classe); rent_control, l'encadrement des loyers quand il s'applique aujourd'hui dans la commune (scope: toute la commune ou une partie; since, until: dates de l'expérimentation), null sinon. La liste des communes encadrées est tenue par l'opérateur d'après Service-Public.fr. Null si le zonage ABC ou TLV n'est pas intégré ou ne nomme pas la commune.", en: "Of the point's commune (its arrondissement when a list names it): abc_zone, the zone of the ABC zoning in force (Abis, A, B1, B2, C, from the tensest; the housing ministry's list); tense_zone, true in a tense zone of the TLV zoning (class 1 tense or 2 tense and touristic; tense_zone_class gives the class); rent_control, rent control when it applies in the commune today (scope: the whole commune or part of it; since, until: the experiment's dates), else null. The list of communes under rent control is kept by the operator from Service-Public.fr. Null when the ABC or TLV zoning is not ingested or does not name the commune." } },
  { id: 'market.permits_nearby', domain: 'market', label: { fr: "Autorisations d'urbanisme autour", en: 'Planning permits around' }, unit: 'count', sources: [], table: 'permits', countries: ['fr'],
    definition: { fr: "Permis autour du point (Sitadel): source non encore intégrée.", en: 'Permits around the point (Sitadel): source not ingested yet.' } },
];

const CMHC = ['ca.cmhc'];
const SURVEY = {
  fr: "Enquête sur les logements locatifs de la SCHL (octobre), quartier d'enquête du point; fiabilité selon les lettres de la SCHL (a excellente et b très bonne: high, c bonne: medium, d passable: low); ** (confidentiel ou non fiable): non servi (suppressed).",
  en: "CMHC Rental Market Survey (October), the point's rental-survey neighbourhood; reliability from CMHC's letters (a excellent and b very good: high, c good: medium, d poor: low); ** (confidential or unreliable): not served (suppressed).",
};
MARKET_FIELDS.push(
  { id: 'market.average_rent', domain: 'market', label: { fr: 'Loyer moyen', en: 'Average rent' }, unit: 'CAD/month', sources: CMHC, table: 'zone_values', countries: ['ca'],
    definition: { fr: `Loyer mensuel moyen des appartements d'initiative privée par nombre de chambres (studio, one_bedroom, two_bedrooms, three_bedrooms_plus). ${SURVEY.fr}`, en: `Average monthly rent of private apartments by bedroom type (studio, one_bedroom, two_bedrooms, three_bedrooms_plus). ${SURVEY.en}` } },
  { id: 'market.rental_vacancy', domain: 'market', label: { fr: "Taux d'inoccupation", en: 'Vacancy rate' }, unit: '%', sources: CMHC, table: 'zone_values', countries: ['ca'],
    definition: { fr: `Part des logements locatifs vacants, tous nombres de chambres. ${SURVEY.fr}`, en: `Share of vacant rental units, all bedroom types. ${SURVEY.en}` } },
);

export function definitionOf(id: string, locale: 'fr' | 'en'): string {
  return MARKET_FIELDS.find((f) => f.id === id)!.definition[locale];
}
