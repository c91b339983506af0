import { z } from 'zod';
import type { Country } from '../../../schemas/common.ts';
import { DomainStatus, Missing, type Domain } from '../../../schemas/domain.ts';
import { Location } from '../../../schemas/location.ts';
import type { MemoryTable, WarehouseLayout } from '../../core/warehouse.ts';
import { accessDomain } from './access/index.ts';
import { buildingDomain } from './building/index.ts';
import { locationDomain } from './location/index.ts';
import { marketDomain } from './market/index.ts';
import { placesDomain } from './places/index.ts';
import { propertyDomain } from './property/index.ts';
import { residentsDomain } from './residents/index.ts';
import { risksDomain } from './risks/index.ts';
import type { DomainModule, FieldDef } from './types.ts';
import { urbanismDomain } from './urbanism/index.ts';

/**
 * The domain registry: one module per domain of spec section 1, in the order of the report.
 * Keyed by the contract's Domain enum, so a domain cannot be forgotten.
 */
export const DOMAIN_REGISTRY: Readonly<Record<Domain, DomainModule>> = {
  location: locationDomain,
  building: buildingDomain,
  property: propertyDomain,
  risks: risksDomain,
  market: marketDomain,
  places: placesDomain,
  access: accessDomain,
  residents: residentsDomain,
  urbanism: urbanismDomain,
};

export const DOMAIN_MODULES: readonly DomainModule[] = Object.values(DOMAIN_REGISTRY);

/** Domains served whatever `include` and the key say. */
export const ALWAYS_SERVED: readonly Domain[] = DOMAIN_MODULES.filter((m) => m.alwaysServed).map((m) => m.id);

/** Every catalogued field, domain by domain. */
export const ALL_FIELDS: readonly FieldDef[] = DOMAIN_MODULES.flatMap((m) => m.fields);

/** Does this service compute the domain in the country? */
export const computes = (domain: Domain, country: Country): boolean => DOMAIN_REGISTRY[domain].resolvers[country] !== undefined;

/** The warehouse's tables and memory tables: those the domains read. */
export const WAREHOUSE_LAYOUT: WarehouseLayout = {
  tables: [...new Set(DOMAIN_MODULES.flatMap((m) => Object.values(m.tables).flat()))],
  memoryTables: Object.assign({}, ...DOMAIN_MODULES.map((m) => m.memoryTables ?? {})) as Record<string, MemoryTable>,
};

/** A domain answered without being computed: status and missing only. */
export const PendingDomain = z.object({ status: DomainStatus, missing: Missing });

/**
 * data of the report (spec 2.1): location always, then each domain in its own shape once computed,
 * else status and missing only.
 */
export const ReportData = z.object({ location: Location }).extend(Object.fromEntries(DOMAIN_MODULES.filter((m) => !m.alwaysServed).map((m) => [
  m.id, (m.schema ? z.union([m.schema, PendingDomain]) : PendingDomain).optional(),
])) as unknown as Record<Exclude<Domain, 'location'>, z.ZodOptional<z.ZodType>>);
