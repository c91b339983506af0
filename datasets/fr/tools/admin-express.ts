/**
 * ADMIN EXPRESS layer schemas and attribute values for the samples. Names, INSEE codes, populations
 * and EPCI come from @etalab/decoupage-administratif; identifiers (ID) are synthetic values written
 * in the published pattern; INSEE_CAN is left blank (see README).
 */
import { createRequire } from 'node:module';
import type { DbfField, DbfValue } from './shapefile-writer.ts';

const require = createRequire(import.meta.url);
interface CogCommune {
  code: string;
  nom: string;
  type: string;
  arrondissement?: string;
  departement: string;
  region: string;
  population?: number;
  commune?: string;
}
interface CogNamed {
  code: string;
  nom: string;
  region?: string;
}
interface CogEpci {
  code: string;
  membres: { code: string }[];
}
const communes: CogCommune[] = require('@etalab/decoupage-administratif/data/communes.json');
const departements: CogNamed[] = require('@etalab/decoupage-administratif/data/departements.json');
const regions: CogNamed[] = require('@etalab/decoupage-administratif/data/regions.json');
const epcis: CogEpci[] = require('@etalab/decoupage-administratif/data/epci.json');

export const FIELDS_COMMUNE: DbfField[] = [
  { name: 'ID', type: 'C', length: 24 },
  { name: 'NOM', type: 'C', length: 50 },
  { name: 'NOM_M', type: 'C', length: 50 },
  { name: 'INSEE_COM', type: 'C', length: 5 },
  { name: 'STATUT', type: 'C', length: 26 },
  { name: 'POPULATION', type: 'N', length: 8 },
  { name: 'INSEE_CAN', type: 'C', length: 2 },
  { name: 'INSEE_ARR', type: 'C', length: 2 },
  { name: 'INSEE_DEP', type: 'C', length: 3 },
  { name: 'INSEE_REG', type: 'C', length: 2 },
  { name: 'SIREN_EPCI', type: 'C', length: 20 },
];
export const FIELDS_ARRONDISSEMENT_MUNICIPAL: DbfField[] = [
  { name: 'ID', type: 'C', length: 24 },
  { name: 'NOM', type: 'C', length: 50 },
  { name: 'NOM_M', type: 'C', length: 50 },
  { name: 'INSEE_ARM', type: 'C', length: 5 },
  { name: 'INSEE_COM', type: 'C', length: 5 },
  { name: 'POPULATION', type: 'N', length: 8 },
];
export const FIELDS_DEPARTEMENT: DbfField[] = [
  { name: 'ID', type: 'C', length: 24 },
  { name: 'NOM', type: 'C', length: 30 },
  { name: 'NOM_M', type: 'C', length: 30 },
  { name: 'INSEE_DEP', type: 'C', length: 3 },
  { name: 'INSEE_REG', type: 'C', length: 2 },
];
export const FIELDS_REGION: DbfField[] = [
  { name: 'ID', type: 'C', length: 24 },
  { name: 'NOM', type: 'C', length: 35 },
  { name: 'NOM_M', type: 'C', length: 35 },
  { name: 'INSEE_REG', type: 'C', length: 2 },
];

/** Upper case without accents, as in the NOM_M columns. */
export function nomM(nom: string): string {
  return nom.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase();
}

const STATUT: Record<string, string> = {
  '75056': "Capitale d'état",
  '97411': 'Préfecture de région',
};

function commune(code: string): CogCommune {
  const c = communes.find((x) => x.code === code && x.type !== 'commune-deleguee' && x.type !== 'commune-associee');
  if (!c) throw new Error(`unknown commune ${code}`);
  return c;
}

function id(prefix: string, n: number, width: number): string {
  return `${prefix}${String(n).padStart(width, '0')}`;
}

export function communeRow(code: string, territory: string): Record<string, DbfValue> {
  const c = commune(code);
  const epci = epcis.find((e) => e.membres.some((m) => m.code === code));
  const arr = c.arrondissement ?? '';
  return {
    ID: id('COMMUNE_', 9_700_000_000 + Number(code.replace(/\D/g, '')), 16),
    NOM: c.nom,
    NOM_M: nomM(c.nom),
    INSEE_COM: c.code,
    STATUT: STATUT[code] ?? 'Commune simple',
    POPULATION: c.population ?? null,
    // No canton source in reach (the COG package has none): left blank rather than guessed.
    INSEE_CAN: '',
    INSEE_ARR: arr.slice(c.departement.length),
    INSEE_DEP: c.departement,
    INSEE_REG: c.region,
    SIREN_EPCI: epci?.code ?? 'NC',
  };
}

export function arrondissementMunicipalRow(code: string): Record<string, DbfValue> {
  const c = commune(code);
  return {
    ID: id('ARR_MUNI_', 9_736_000_000 + Number(code), 15),
    NOM: c.nom,
    NOM_M: nomM(c.nom),
    INSEE_ARM: c.code,
    INSEE_COM: c.commune ?? '',
    POPULATION: c.population ?? null,
  };
}

export function departementRow(code: string, territory: string): Record<string, DbfValue> {
  const d = departements.find((x) => x.code === code);
  if (!d) throw new Error(`unknown departement ${code}`);
  return {
    ID: id(`DEPARTEM_${territory}_`, Number(code), 11),
    NOM: d.nom,
    NOM_M: nomM(d.nom),
    INSEE_DEP: d.code,
    INSEE_REG: d.region ?? '',
  };
}

export function regionRow(code: string, territory: string): Record<string, DbfValue> {
  const r = regions.find((x) => x.code === code);
  if (!r) throw new Error(`unknown region ${code}`);
  return {
    ID: id(`REGION_${territory}_`, Number(code), 13),
    NOM: r.nom,
    NOM_M: nomM(r.nom),
    INSEE_REG: r.code,
  };
}

export function communeName(code: string): string {
  return commune(code).nom;
}
