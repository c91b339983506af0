import { z } from 'zod';
import { VARIANT_DOMAINS, VariantLocation, VariantMeta, type VariantDomain } from './variant.ts';
import { Amenities, Transport, VariantPendingDomain } from './variant-places.ts';

/** The variant's domains computed by this service, each in its own shape (spec 2.12). */
export const VARIANT_DOMAIN_SCHEMAS: Partial<Record<VariantDomain, z.ZodType>> = { amenities: Amenities, transport: Transport };

/**
 * data of GET /api/v1/report (spec 4.5): location always (the variant's), then each requested
 * domain of spec 2.12: in its shape once computed, else status and missing only (not_covered
 * where the country publishes none, unavailable where this service does not compute it yet).
 */
export const VariantReportData = z.object({ location: VariantLocation }).extend(Object.fromEntries(
  (Object.keys(VARIANT_DOMAINS) as VariantDomain[]).filter((d) => d !== 'location').map((d) => {
    const own = VARIANT_DOMAIN_SCHEMAS[d];
    return [d, (own ? z.union([own, VariantPendingDomain]) : VariantPendingDomain).optional()];
  }),
) as unknown as Record<Exclude<VariantDomain, 'location'>, z.ZodOptional<z.ZodType>>);

export const VariantReportResponse = z.object({ data: VariantReportData, meta: VariantMeta });
