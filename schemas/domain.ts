import { z } from 'zod';
import { type CodeCatalogue, enumOf } from './common.ts';

/** Domains of the country routes (spec section 1 table). */
export const DOMAINS = {
  location: { fr: 'Localisation', en: 'Location' },
  building: { fr: 'Bâtiment', en: 'Building' },
  property: { fr: 'Logement', en: 'Property' },
  risks: { fr: 'Risques', en: 'Risks' },
  market: { fr: 'Marché', en: 'Market' },
  places: { fr: 'Lieux', en: 'Places' },
  access: { fr: 'Accès', en: 'Access' },
  residents: { fr: 'Habitants', en: 'Residents' },
  urbanism: { fr: 'Urbanisme', en: 'Urbanism' },
} as const satisfies CodeCatalogue<string>;
export const Domain = enumOf(DOMAINS);
export type Domain = z.infer<typeof Domain>;

/** Domain status, first key of each domain (spec 2.5). */
export const DOMAIN_STATUSES = {
  ok: { fr: 'Toutes les données du domaine sont servies', en: 'All data of the domain answered' },
  partial: { fr: 'Une partie des données est momentanément indisponible', en: 'Part of the data is momentarily unavailable' },
  not_covered: { fr: 'Aucune donnée publiée à cet endroit', en: 'No published data at that place' },
  unavailable: { fr: 'Données momentanément indisponibles', en: 'Data momentarily unavailable' },
  insufficient_precision: { fr: 'Position trop imprécise pour ce domaine', en: 'Position too imprecise for the domain' },
} as const satisfies CodeCatalogue<string>;
export const DomainStatus = enumOf(DOMAIN_STATUSES);
export type DomainStatus = z.infer<typeof DomainStatus>;

/** Absence reasons of the `missing` object (spec 2.5). */
export const MISSING_REASONS = {
  not_covered: { fr: "Donnée non publiée sur ce territoire", en: 'Datum not published on this territory' },
  not_applicable: { fr: "Donnée sans objet ici", en: 'Datum has no meaning here' },
  insufficient_sample: { fr: "Trop peu d'observations pour une valeur fiable", en: 'Too few observations for a reliable value' },
  suppressed: { fr: 'Valeur non publiée (secret statistique, fiabilité insuffisante)', en: 'Value not published (statistical secrecy, insufficient reliability)' },
  not_found: { fr: 'Rien de trouvé ici', en: 'Nothing found here' },
  not_assessed: { fr: 'Point hors des secteurs cartographiés', en: 'Point outside mapped sectors' },
  unavailable: { fr: 'Momentanément indisponible', en: 'Momentarily unavailable' },
  insufficient_precision: { fr: 'Position trop imprécise pour une donnée du bâtiment', en: 'Position too imprecise for a building-level datum' },
} as const satisfies CodeCatalogue<string>;
export const MissingReason = enumOf(MISSING_REASONS);
export type MissingReason = z.infer<typeof MissingReason>;

/** Field path -> absence reason (spec 2.5). */
export const Missing = z.record(z.string(), MissingReason);
export type Missing = z.infer<typeof Missing>;

/** An entry of meta.warnings (spec 2.1). */
export const Warning = z.object({
  domain: z.string(),
  code: z.string(),
  message: z.string(),
});
export type Warning = z.infer<typeof Warning>;
