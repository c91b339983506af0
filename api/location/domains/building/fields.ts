import type { FieldDef } from '../types.ts';

type Def = [id: string, fr: [string, string], en: [string, string], unit: string | null, sources: string[], table: string];
const DEFS: Def[] = [
  ['building.id', ['Identifiant du bâtiment', 'Identifiant bld_ stable du service (registre des identifiants), donné au bâtiment du RNB'], ['Building identifier', "The service's stable bld_ identifier (id registry), given to the RNB building"], null, ['fr.rnb', 'fr.bdnb'], 'buildings'],
  ['building.type', ['Type de bâtiment', "Usage principal (fichiers fonciers via la BDNB): apartment_building, house, mixed_use, other"], ['Building type', 'Main use (fichiers fonciers through the BDNB): apartment_building, house, mixed_use, other'], null, ['fr.bdnb'], 'buildings'],
  ['building.construction_year', ['Année de construction', 'Fichiers fonciers (BDNB); les DPE du bâtiment en alternatives'], ['Construction year', 'Fichiers fonciers (BDNB); the diagnoses of the building as alternatives'], null, ['fr.bdnb', 'fr.dpe'], 'buildings'],
  ['building.levels', ['Niveaux', 'Nombre de niveaux (fichiers fonciers, BDNB); les DPE en alternatives'], ['Levels', 'Number of levels (fichiers fonciers, BDNB); diagnoses as alternatives'], 'count', ['fr.bdnb', 'fr.dpe'], 'buildings'],
  ['building.dwellings', ['Logements', "Nombre de logements (fichiers fonciers, BDNB); les DPE et les lots d'habitation du registre des copropriétés en alternatives"], ['Dwellings', 'Number of dwellings (fichiers fonciers, BDNB); diagnoses and the dwelling lots of the co-ownership registry as alternatives'], 'count', ['fr.bdnb', 'fr.dpe', 'fr.rnic'], 'buildings'],
  ['building.height_m', ['Hauteur moyenne', 'Hauteur moyenne en mètres (BD TOPO via la BDNB)'], ['Mean height', 'Mean height in metres (BD TOPO through the BDNB)'], null, ['fr.bdnb'], 'buildings'],
  ['building.footprint_m2', ['Emprise au sol', "Surface de l'emprise du RNB"], ['Footprint', 'Area of the RNB footprint'], 'm2', ['fr.rnb'], 'buildings'],
  ['building.materials', ['Matériaux', 'Murs et toiture (fichiers fonciers, BDNB)'], ['Materials', 'Walls and roof (fichiers fonciers, BDNB)'], null, ['fr.bdnb'], 'buildings'],
  ['building.heritage.historic_monument', ['Monument historique proche', "Nom et distance (m) du monument historique (base Mérimée) le plus proche s'il est à moins de 500 m, selon la BDNB; null (not_found) si aucun"], ['Nearby historic monument', 'Name and distance (m) of the nearest historic monument (Mérimée) when within 500 m, as the BDNB gives it; null (not_found) when none'], 'm', ['fr.bdnb'], 'buildings'],
  ['building.electricity_per_meter', ['Électricité par compteur', "Consommation annuelle d'électricité par point de livraison résidentiel (données locales de l'énergie d'Enedis via la BDNB), une valeur par année publiée"], ['Electricity per meter', "Annual electricity consumption per residential delivery point (Enedis local energy data through the BDNB), one value per published year"], 'kWh/year', ['fr.bdnb'], 'buildings'],
  ['building.energy_diagnoses', ['Diagnostics énergétiques', "DPE v2 publiés aux adresses du bâtiment (ADEME), hors DPE remplacés"], ['Energy diagnoses', 'DPE v2 published at the addresses of the building (ADEME), replaced ones excluded'], null, ['fr.dpe'], 'diagnoses'],
  ['building.copro', ['Copropriété', "Fiche du registre national d'immatriculation des copropriétés (ANAH) rattachée au bâtiment: sûre par la parcelle ou un DPE qui la nomme, probable par l'adresse ou le point"], ['Co-ownership', "Entry of the national co-ownership registry (ANAH) attached to the building: sure through its parcel or a diagnosis naming it, probable through its address or point"], null, ['fr.rnic'], 'copro'],
  ['building.sales', ['Ventes du bâtiment', 'Mutations DVF depuis 2014 sur les parcelles du bâtiment (rattachement par parcelle)'], ['Sales of the building', 'DVF mutations since 2014 on the parcels of the building (attached through the parcel)'], null, ['fr.dvf', 'fr.dvf-dgfip', 'fr.bdnb'], 'sales'],
];

/** Fields of data.building in France and the sources that feed them (catalog). */
export const BUILDING_FIELDS: FieldDef[] = DEFS.map(([id, fr, en, unit, sources, table]) => ({
  id, domain: 'building', label: { fr: fr[0], en: en[0] }, definition: { fr: fr[1], en: en[1] }, unit, sources, table, countries: ['fr'],
}));
