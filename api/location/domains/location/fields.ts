import type { Country, Locale } from '../../../../schemas/common.ts';
import type { FieldDef } from '../types.ts';

/** Fields served by the location domain (spec 2.6) and what backs them. */
const FR_FIELDS: FieldDef[] = [
  { id: 'location.address', domain: 'location', label: { fr: 'Adresse', en: 'Address' }, definition: { fr: "Adresse officielle retenue (au numéro, à la rue ou à la commune selon la précision)", en: 'Official address kept (at the number, street or locality depending on precision)' }, unit: null, sources: ['fr.ban'], table: 'addresses', countries: ['fr'] },
  { id: 'location.precision', domain: 'location', label: { fr: 'Précision', en: 'Precision' }, definition: { fr: 'Précision de la position retenue: input, building, address, street, locality', en: 'Precision of the position kept: input, building, address, street, locality' }, unit: null, sources: [], table: null, countries: ['fr', 'ca', 'be'] },
  { id: 'location.zones.administrative_area_level1', domain: 'location', label: { fr: 'Région', en: 'Region' }, definition: { fr: 'Région contenant le point (code INSEE)', en: 'Region containing the point (INSEE code)' }, unit: null, sources: ['fr.admin-express'], table: 'zones', countries: ['fr'] },
  { id: 'location.zones.administrative_area_level2', domain: 'location', label: { fr: 'Département', en: 'Department' }, definition: { fr: 'Département contenant le point (code INSEE)', en: 'Department containing the point (INSEE code)' }, unit: null, sources: ['fr.admin-express'], table: 'zones', countries: ['fr'] },
  { id: 'location.zones.locality', domain: 'location', label: { fr: 'Commune', en: 'Commune' }, definition: { fr: 'Commune contenant le point (code officiel géographique)', en: 'Commune containing the point (official geographic code)' }, unit: null, sources: ['fr.admin-express'], table: 'zones', countries: ['fr'] },
  { id: 'location.zones.sublocality_level1', domain: 'location', label: { fr: 'Arrondissement municipal', en: 'Municipal arrondissement' }, definition: { fr: 'Arrondissement municipal de Paris, Lyon ou Marseille; null ailleurs', en: 'Municipal arrondissement of Paris, Lyon or Marseille; null elsewhere' }, unit: null, sources: ['fr.admin-express'], table: 'zones', countries: ['fr'] },
  { id: 'location.zones.sublocality_level2', domain: 'location', label: { fr: 'IRIS', en: 'IRIS' }, definition: { fr: "IRIS contenant le point (code à 9 caractères)", en: 'IRIS containing the point (9-character code)' }, unit: null, sources: ['fr.contours-iris'], table: 'zones', countries: ['fr'] },
  { id: 'location.parcel', domain: 'location', label: { fr: 'Parcelle cadastrale', en: 'Cadastral parcel' }, definition: { fr: "Parcelle cadastrale contenant le point (identifiant à 14 caractères, référence section et numéro, contenance en m², null quand le cadastre ne la publie pas); à défaut la parcelle que la BAN donne pour l'adresse, sans surface", en: 'Cadastral parcel containing the point (14-character id, reference section and number, contenance in m2, null when the cadastre publishes none); otherwise the parcel the BAN gives for the address, without area' }, unit: null, sources: ['fr.cadastre', 'fr.ban'], table: 'parcels', countries: ['fr'] },
];

type Def = [id: string, label: Record<Locale, string>, definition: Record<Locale, string>, sources: string[], table: string];
const zoneFields = (country: Country, defs: Def[]): FieldDef[] => defs.map(([id, label, definition, sources, table]) => ({ id, domain: 'location', label, definition, unit: null, sources, table, countries: [country] }));

const BE_FIELDS = zoneFields('be', [
  ['location.address', { fr: 'Adresse', en: 'Address' }, { fr: "Adresse BeST au numéro, nommée dans la langue de la région; trouvée en français, néerlandais ou allemand", en: 'BeST address at the number, named in the language of the region; found in French, Dutch or German' }, ['be.best'], 'addresses'],
  ['location.zones.administrative_area_level1', { fr: 'Région', en: 'Region' }, { fr: 'Région contenant le point (code REFNIS: 02000 Flandre, 03000 Wallonie, 04000 Bruxelles-Capitale)', en: 'Region containing the point (REFNIS code: 02000 Flanders, 03000 Wallonia, 04000 Brussels-Capital)' }, ['be.statbel-sectors', 'be.refnis'], 'zones'],
  ['location.zones.administrative_area_level2', { fr: 'Province', en: 'Province' }, { fr: 'Province contenant le point (code REFNIS); null dans la Région de Bruxelles-Capitale', en: 'Province containing the point (REFNIS code); null in the Brussels-Capital Region' }, ['be.statbel-sectors', 'be.refnis'], 'zones'],
  ['location.zones.administrative_area_level3', { fr: 'Arrondissement administratif', en: 'Administrative arrondissement' }, { fr: 'Arrondissement administratif contenant le point (code REFNIS)', en: 'Administrative arrondissement containing the point (REFNIS code)' }, ['be.statbel-sectors', 'be.refnis'], 'zones'],
  ['location.zones.locality', { fr: 'Commune', en: 'Municipality' }, { fr: 'Commune contenant le point (code NIS), nommée dans ses langues officielles', en: 'Municipality containing the point (NIS code), named in its official languages' }, ['be.statbel-sectors', 'be.refnis'], 'zones'],
  ['location.zones.sublocality_level1', { fr: 'Section', en: 'Section' }, { fr: 'Section (ancienne commune) contenant le point', en: 'Section (former municipality) containing the point' }, ['be.statbel-sectors'], 'zones'],
  ['location.zones.sublocality_level2', { fr: 'Secteur statistique', en: 'Statistical sector' }, { fr: 'Secteur statistique Statbel contenant le point', en: 'Statbel statistical sector containing the point' }, ['be.statbel-sectors'], 'zones'],
]);

const CA_FIELDS = zoneFields('ca', [
  ['location.address', { fr: 'Adresse', en: 'Address' }, { fr: 'Adresse civique Adresses Québec au numéro', en: 'Adresses Québec civic address at the number' }, ['ca.adresses-quebec'], 'addresses'],
  ['location.zones.administrative_area_level1', { fr: 'Province', en: 'Province' }, { fr: 'Province de Québec (code 24)', en: 'Province of Quebec (code 24)' }, ['ca.sda'], 'zones'],
  ['location.zones.administrative_area_level2', { fr: 'Région administrative', en: 'Administrative region' }, { fr: 'Région administrative contenant le point (code 01 à 17)', en: 'Administrative region containing the point (code 01 to 17)' }, ['ca.sda', 'ca.mun'], 'zones'],
  ['location.zones.administrative_area_level3', { fr: 'MRC ou territoire équivalent', en: 'MRC or equivalent territory' }, { fr: 'MRC contenant le point, ou le territoire équivalent (division de recensement) hors MRC', en: 'Regional county municipality containing the point, or the equivalent territory (census division) outside any MRC' }, ['ca.sda', 'ca.mun'], 'zones'],
  ['location.zones.locality', { fr: 'Municipalité', en: 'Municipality' }, { fr: 'Municipalité contenant le point (code géographique du MAMH)', en: 'Municipality containing the point (MAMH geographic code)' }, ['ca.sda', 'ca.mun', 'ca.montreal-limadmin'], 'zones'],
  ['location.zones.sublocality_level1', { fr: 'Arrondissement', en: 'Borough' }, { fr: 'Arrondissement (Montréal, Québec...); null dans une municipalité sans arrondissement', en: 'Borough (Montreal, Quebec City...); null in a municipality without boroughs' }, ['ca.sda', 'ca.montreal-limadmin'], 'zones'],
  ['location.zones.rental_survey_area', { fr: "Quartier d'enquête locative", en: 'Rental survey area' }, { fr: "Quartier de l'enquête sur les logements locatifs; code Q + région d'enquête + quartier", en: 'Rental survey neighbourhood; code Q + survey region + neighbourhood' }, ['ca.rental-areas'], 'zones'],
  ['location.zones.postal_code_prefix', { fr: 'Région de tri d’acheminement', en: 'Forward sortation area' }, { fr: 'Trois premiers caractères du code postal (Statistique Canada)', en: 'First three characters of the postal code (Statistics Canada)' }, ['ca.statcan-fsa'], 'zones'],
]);

/** Every field of the location domain, France then Belgium then Quebec. */
export const LOCATION_FIELDS: FieldDef[] = [...FR_FIELDS, ...BE_FIELDS, ...CA_FIELDS];
