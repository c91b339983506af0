import type { Country } from '../../../../schemas/common.ts';
import type { FieldDef } from '../types.ts';

const FILOSOFI = ['fr.filosofi'];
const CENSUS = ['fr.census'];
const CENSUS_NOTE = {
  fr: 'Publié à l’IRIS (et à la commune non découpée en IRIS) et servi à l’IRIS seulement; period: le 1er janvier de l’année du recensement (milieu des cinq années de collecte); fiabilité low quand l’effectif (ou le dénominateur d’une part) est sous 200, seuil sous lequel l’INSEE déconseille l’usage dans les communes recensées par sondage, sinon high.',
  en: 'Published by IRIS (and for communes not divided into IRIS) and served at the IRIS only; period: 1 January of the census year (the middle of its five collection years); reliability low when the count (or a share’s denominator) is under 200, below which INSEE advises against use where the census is a sample, else high.',
};
const ZONES_FR = {
  fr: 'Publiée à l’IRIS et à la commune (et à l’arrondissement municipal); servie à la zone la plus fine du point dont la valeur est fiable (IRIS, puis arrondissement, commune, département, région). À l’IRIS la fiabilité vient de la note de précaution d’usage de l’INSEE (0: high, 1: medium); à la commune, exhaustive, elle est high et sample_size est le nombre de ménages fiscaux.',
  en: 'Published by IRIS and by commune (and municipal arrondissement); served at the finest zone of the point with a reliable value (IRIS, then arrondissement, commune, department, region). At the IRIS reliability comes from INSEE’s caution note (0: high, 1: medium); at the commune, exhaustive, it is high and sample_size is the number of fiscal households.',
};

/** Fields of the residents domain in France (spec 2.11; issue 14) and what backs them. */
export const RESIDENTS_FIELDS: FieldDef[] = [
  { id: 'residents.income.median_disposable_per_unit', domain: 'residents', label: { fr: 'Revenu disponible médian par unité de consommation', en: 'Median disposable income per consumption unit' }, unit: 'EUR/year', sources: FILOSOFI, table: 'zone_values', countries: ['fr'],
    definition: { fr: `Médiane du revenu disponible annuel par unité de consommation des personnes de la zone (Filosofi, INSEE): revenus d’activité, de remplacement, du patrimoine et prestations, nets des impôts directs. range: premier et troisième quartiles. Une valeur couverte par le secret statistique n’est pas servie (suppressed). ${ZONES_FR.fr}`, en: `Median annual disposable income per consumption unit of the people of the zone (Filosofi, INSEE): earnings, replacement and property income and benefits, net of direct taxes. range: first and third quartiles. A value under statistical secrecy is not served (suppressed). ${ZONES_FR.en}` } },
  { id: 'residents.income.poverty_rate', domain: 'residents', label: { fr: 'Taux de pauvreté', en: 'Poverty rate' }, unit: '%', sources: FILOSOFI, table: 'zone_values', countries: ['fr'],
    definition: { fr: `Part des personnes dont le niveau de vie est inférieur à 60 % du niveau de vie médian de France métropolitaine (Filosofi, INSEE). ${ZONES_FR.fr}`, en: `Share of people whose standard of living is below 60 % of the median of metropolitan France (Filosofi, INSEE). ${ZONES_FR.en}` } },
  { id: 'residents.households.count', domain: 'residents', label: { fr: 'Ménages', en: 'Households' }, unit: 'count', sources: CENSUS, table: 'zone_values', countries: ['fr'],
    definition: { fr: `Nombre de ménages (personnes partageant une résidence principale) de l’IRIS, exploitation complémentaire du recensement (INSEE, C_MEN), arrondi à l’unité. ${CENSUS_NOTE.fr}`, en: `Number of households (people sharing a main residence) of the IRIS, census complementary exploitation (INSEE, C_MEN), rounded to the unit. ${CENSUS_NOTE.en}` } },
  { id: 'residents.housing.dwellings', domain: 'residents', label: { fr: 'Logements', en: 'Dwellings' }, unit: 'count', sources: CENSUS, table: 'zone_values', countries: ['fr'],
    definition: { fr: `Nombre de logements (résidences principales, secondaires, occasionnels et vacants) de l’IRIS (recensement, INSEE, P_LOG), arrondi à l’unité. ${CENSUS_NOTE.fr}`, en: `Number of dwellings (main and secondary residences, occasional and vacant dwellings) of the IRIS (census, INSEE, P_LOG), rounded to the unit. ${CENSUS_NOTE.en}` } },
  { id: 'residents.housing.houses_share', domain: 'residents', label: { fr: 'Part des maisons', en: 'Share of houses' }, unit: '%', sources: CENSUS, table: 'zone_values', countries: ['fr'],
    definition: { fr: `Maisons parmi les logements de l’IRIS, en % (recensement, P_MAISON / P_LOG), une décimale. ${CENSUS_NOTE.fr}`, en: `Houses among the dwellings of the IRIS, in % (census, P_MAISON / P_LOG), one decimal. ${CENSUS_NOTE.en}` } },
  { id: 'residents.housing.owners_share', domain: 'residents', label: { fr: 'Part des propriétaires occupants', en: 'Share of owner-occupiers' }, unit: '%', sources: CENSUS, table: 'zone_values', countries: ['fr'],
    definition: { fr: `Résidences principales occupées par leur propriétaire, en % des résidences principales (recensement, P_RP_PROP / P_RP). ${CENSUS_NOTE.fr}`, en: `Main residences occupied by their owner, in % of main residences (census, P_RP_PROP / P_RP). ${CENSUS_NOTE.en}` } },
  { id: 'residents.housing.social_housing_share', domain: 'residents', label: { fr: 'Part des logements sociaux', en: 'Share of social housing' }, unit: '%', sources: CENSUS, table: 'zone_values', countries: ['fr'],
    definition: { fr: `Résidences principales HLM louées vides, en % des résidences principales (recensement, P_RP_LOCHLMV / P_RP). ${CENSUS_NOTE.fr}`, en: `Main residences rented unfurnished from a social landlord (HLM), in % of main residences (census, P_RP_LOCHLMV / P_RP). ${CENSUS_NOTE.en}` } },
];

const STATBEL = ['be.statbel-income'];
const BUILDING_STOCK = ['be.building-stock'];
const BUILDING_STOCK_NOTE = {
  fr: 'Servi à la commune seulement; fiabilité high (registre exhaustif); pas de valeur quand un type de bâtiment manque à la commune.',
  en: 'Served at the municipality only; reliability high (an exhaustive register); no value when a building type is missing for the municipality.',
};
RESIDENTS_FIELDS.push(
  { id: 'residents.income.taxable_median', domain: 'residents', label: { fr: 'Revenu imposable médian par déclaration', en: 'Median taxable income per return' }, unit: 'EUR/year', sources: [], table: 'zone_values', countries: ['be'],
    definition: { fr: 'Revenu net imposable médian par déclaration, au secteur statistique (Statbel): source non encore intégrée.', en: 'Median net taxable income per tax return, at statistical sector (Statbel): source not ingested yet.' } },
  { id: 'residents.income.taxable_mean_per_return', domain: 'residents', label: { fr: 'Revenu imposable moyen par déclaration', en: 'Mean taxable income per return' }, unit: 'EUR/year', sources: STATBEL, table: 'zone_values', countries: ['be'],
    definition: { fr: "Revenu total net imposable de la commune divisé par le nombre de déclarations (avec et sans revenu), pour l'année de revenus (Statbel, statistiques fiscales). Une moyenne, pas la médiane: une autre mesure. sample_size: nombre de déclarations; fiabilité high (toutes les déclarations sont comptées). Servie à la commune.", en: 'Total net taxable income of the municipality divided by the number of tax returns (with and without income), for the income year (Statbel, fiscal statistics). A mean, not the median: another measure. sample_size: number of returns; reliability high (every return is counted). Served at the municipality.' } },
  { id: 'residents.housing.dwellings', domain: 'residents', label: { fr: 'Logements', en: 'Dwellings' }, unit: 'count', sources: BUILDING_STOCK, table: 'zone_values', countries: ['be'],
    definition: { fr: `Nombre de logements (T8) de la commune, tous types de bâtiments, au 1er janvier de l’année (parc des bâtiments de Statbel, d’après le cadastre). ${BUILDING_STOCK_NOTE.fr}`, en: `Number of dwellings (T8) of the municipality, every building type, on 1 January of the year (Statbel’s building stock, from the cadastre). ${BUILDING_STOCK_NOTE.en}` } },
  { id: 'residents.housing.houses_share', domain: 'residents', label: { fr: 'Part des maisons', en: 'Share of houses' }, unit: '%', sources: BUILDING_STOCK, table: 'zone_values', countries: ['be'],
    definition: { fr: `Logements situés dans des maisons (types fermé, demi-fermé, ouvert, fermes et châteaux: R1-R3) parmi tous les logements de la commune, en %, une décimale (parc des bâtiments de Statbel); sample_size: nombre de logements. ${BUILDING_STOCK_NOTE.fr}`, en: `Dwellings in houses (closed, semi-detached, detached, farms and castles: R1-R3) among all dwellings of the municipality, in %, one decimal (Statbel’s building stock); sample_size: number of dwellings. ${BUILDING_STOCK_NOTE.en}` } },
);

RESIDENTS_FIELDS.push(
  { id: 'residents.income.total_mean', domain: 'residents', label: { fr: 'Revenu total moyen', en: 'Average total income' }, unit: 'CAD/year', sources: ['ca.census'], table: 'zone_values', countries: ['ca'],
    definition: { fr: "Revenu total moyen des bénéficiaires de 15 ans et plus des ménages privés, pour l'année de revenu du recensement (Statistique Canada, profil du recensement par région de tri d'acheminement). sample_size: nombre de bénéficiaires; fiabilité high, medium quand Statistique Canada signale la qualité des données de la région (DATA_QUALITY_FLAG), low pour une valeur à utiliser avec prudence (E); une valeur supprimée (x) ou trop peu fiable (F) n'est pas servie. Servi à la région de tri d'acheminement (trois premiers caractères du code postal) seulement.", en: "Average total income of recipients aged 15 and over in private households, for the census income year (Statistics Canada, Census Profile by forward sortation area). sample_size: number of recipients; reliability high, medium when Statistics Canada flags the area's data quality (DATA_QUALITY_FLAG), low for a value to use with caution (E); a suppressed (x) or too unreliable (F) value is not served. Served at the forward sortation area (first three characters of the postal code) only." } },
);

export function definitionOf(id: string, locale: 'fr' | 'en', country: Country): string {
  return RESIDENTS_FIELDS.find((f) => f.id === id && f.countries.includes(country))!.definition[locale];
}
