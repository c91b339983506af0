import type { Country } from '../schemas/common.ts';
import type { Domain } from '../schemas/domain.ts';
import type { VariantDomain } from '../schemas/variant.ts';
import type { ZoneLevel } from '../schemas/zone.ts';

/**
 * What the service knows of a country, in one place (issue 13, section 2): every question of the
 * form "which countries" or "does this country have X" reads the profiles (datasets/countries.ts).
 */
export interface CountryProfile {
  id: Country;
  /** Upper-case code: the country zone's code and the variant's `country` (spec 2.4, 2.12). */
  code: 'FR' | 'BE' | 'CA';
  /**
   * ISO 3166-1 alpha-2 codes under which international datasets (OurAirports) publish the served
   * territory: France's overseas departments and collectivities have codes of their own.
   */
  isoCodes: readonly string[];
  /** Name of the country zone, in the country's official languages. */
  name: string;
  /** Territory the routes serve, in the outside_coverage message and the coverage catalog. */
  territory: { label: string; en: string };
  /** Official languages of the names the producers publish (ISO 639-1). */
  languages: string[];
  currency: 'EUR' | 'CAD';
  /** Domains the country publishes (spec section 1 table); the others answer not_covered. */
  domains: Domain[];
  /** What the country publishes per domain of the multi-country variant (spec 2.12); full when absent. */
  variantCoverage: Partial<Record<VariantDomain, 'partial' | 'none'>>;
  zoneLevels: {
    /** Levels the country does not use at all (spec 2.4): null with reason not_applicable. */
    unused: ZoneLevel[];
    /** Levels that exist only in some places: absent elsewhere is not_applicable rather than not_found. */
    partial: ZoneLevel[];
  };
  /**
   * The served territory's outline (api/location/coverage): the country's Natural Earth polygons
   * (ISO 3166 numeric id), clipped by a finer outline where the service covers only a part.
   */
  outline: { naturalEarthId: string; within?: 'quebec' };
  /** Catalog routes of the country (spec 4.2 lists fields; 4.4 adds domains for Belgium). */
  catalogs: ('fields' | 'domains' | 'categories' | 'hazards')[];
  /**
   * The territories the catalog names in a zone-values field's coverage (spec 4.4 coverage
   * `partial` with the territories covered): the zone level they are, and the territory's code
   * from the first three characters of a zone code the country publishes values for (an IRIS, a
   * commune, a statistical sector all start with their department or NIS code). Absent: the
   * country's zone codes do not say their territory (Quebec's FSAs), coverage is not split.
   */
  zoneValueTerritory?: { level: ZoneLevel; of: (codePrefix: string) => string | null };
  address: {
    /** How a postal code is written in a free-text address. */
    postcode: 'five_digits' | 'four_digits_before_locality' | 'canadian_a1a_1a1';
  };
}
