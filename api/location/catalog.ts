import type { Country, Locale } from '../../schemas/common.ts';
import type { CatalogField } from '../../schemas/catalog.ts';
import type { Manifest } from '../../schemas/tables/manifest.ts';
import { sourceById } from '../../datasets/catalogue.ts';
import { MARKET_FIELDS } from './market/fields.ts';

export interface FieldDef {
  id: string;
  domain: string;
  label: Record<Locale, string>;
  definition: Record<Locale, string>;
  unit: string | null;
  /** Source ids and table that back the field; none means computed from the request. */
  sources: string[];
  table: string | null;
  countries: Country[];
  /** Territories covered when the source does not cover the whole country (coverage partial). */
  territories?: string[];
}

/** Fields served by the location domain (spec 2.6) and what backs them. */
const FIELDS: FieldDef[] = [
  { id: 'location.address', domain: 'location', label: { fr: 'Adresse', en: 'Address' }, definition: { fr: "Adresse officielle retenue (au numéro, à la rue ou à la commune selon la précision)", en: 'Official address kept (at the number, street or locality depending on precision)' }, unit: null, sources: ['fr.ban'], table: 'addresses', countries: ['fr'] },
  { id: 'location.precision', domain: 'location', label: { fr: 'Précision', en: 'Precision' }, definition: { fr: 'Précision de la position retenue: input, building, address, street, locality', en: 'Precision of the position kept: input, building, address, street, locality' }, unit: null, sources: [], table: null, countries: ['fr', 'ca', 'be'] },
  { id: 'location.zones.administrative_area_level1', domain: 'location', label: { fr: 'Région', en: 'Region' }, definition: { fr: 'Région contenant le point (code INSEE)', en: 'Region containing the point (INSEE code)' }, unit: null, sources: ['fr.admin-express'], table: 'zones', countries: ['fr'] },
  { id: 'location.zones.administrative_area_level2', domain: 'location', label: { fr: 'Département', en: 'Department' }, definition: { fr: 'Département contenant le point (code INSEE)', en: 'Department containing the point (INSEE code)' }, unit: null, sources: ['fr.admin-express'], table: 'zones', countries: ['fr'] },
  { id: 'location.zones.locality', domain: 'location', label: { fr: 'Commune', en: 'Commune' }, definition: { fr: 'Commune contenant le point (code officiel géographique)', en: 'Commune containing the point (official geographic code)' }, unit: null, sources: ['fr.admin-express'], table: 'zones', countries: ['fr'] },
  { id: 'location.zones.sublocality_level1', domain: 'location', label: { fr: 'Arrondissement municipal', en: 'Municipal arrondissement' }, definition: { fr: 'Arrondissement municipal de Paris, Lyon ou Marseille; null ailleurs', en: 'Municipal arrondissement of Paris, Lyon or Marseille; null elsewhere' }, unit: null, sources: ['fr.admin-express'], table: 'zones', countries: ['fr'] },
  { id: 'location.zones.sublocality_level2', domain: 'location', label: { fr: 'IRIS', en: 'IRIS' }, definition: { fr: "IRIS contenant le point (code à 9 caractères)", en: 'IRIS containing the point (9-character code)' }, unit: null, sources: ['fr.contours-iris'], table: 'zones', countries: ['fr'] },
  { id: 'location.parcel', domain: 'location', label: { fr: 'Parcelle cadastrale', en: 'Cadastral parcel' }, definition: { fr: "Parcelle de l'adresse telle que la BAN la publie (identifiant, référence); surface non encore servie", en: 'Parcel of the address as published by the BAN (id, reference); area not served yet' }, unit: null, sources: ['fr.ban'], table: 'addresses', countries: ['fr'] },
];

const ALL_FIELDS: FieldDef[] = [...FIELDS, ...MARKET_FIELDS];

/** /catalog/fields: each field with its definition and whether its sources are ingested here. */
export function catalogFields(country: Country, locale: Locale, manifest: Manifest): CatalogField[] {
  return ALL_FIELDS.filter((f) => f.countries.includes(country)).map((f) => {
    const parts = manifest.partitions.filter((p) => f.table !== null && p.table === f.table && p.sources.some((s) => f.sources.includes(s.id) || s.id.startsWith(`${country}.zones.`)));
    const sources = f.sources.map((id) => sourceById(id)).filter((s) => s !== undefined);
    const frequency = sources[0]?.update_frequency ?? 'irregular';
    const updated = parts.map((p) => p.imported_at).sort().at(-1) ?? null;
    const ingested = f.table === null || parts.length > 0;
    const status: CatalogField['coverage']['status'] = !ingested ? 'not_ingested' : f.territories ? 'partial' : 'available';
    return {
      id: f.id, domain: f.domain, label: f.label[locale], definition: f.definition[locale], unit: f.unit, update_frequency: frequency,
      sources: f.sources, coverage: { status, territories: ingested ? f.territories ?? null : null, updated_on: updated ? updated.slice(0, 10) : null },
    };
  });
}
