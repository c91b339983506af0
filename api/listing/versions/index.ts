/**
 * The versions served, newest first. Version 3.2 is the internal model; each older version lists
 * the changes that turn the next newer version's responses into its own. Adding a version is
 * adding its changes here (a newer version moves the model forward and the changes to it).
 */
import type { z } from 'zod';
import type { ListingVersion } from '../../../schemas/listing/common.ts';
import { AgencyOne, AgencyPage } from '../../../schemas/listing/agency.ts';
import { GatewayOne, GatewayPage } from '../../../schemas/listing/gateway.ts';
import { PropertyOne, PropertyPage } from '../../../schemas/listing/property.ts';
import { UserOne, UserPage } from '../../../schemas/listing/user.ts';
import { PropertyOne30, PropertyPage30 } from '../../../schemas/listing/v3_0.ts';
import { STATUS_3_2, type ListingError } from '../errors.ts';
import { amentiesAlias } from './3.0-amenties-alias.ts';
import { formattedSurfacesAsStrings } from './3.0-formatted-surfaces.ts';
import { lifeAnnuityInCents } from './3.0-life-annuity-cents.ts';
import { noUnitNumber } from './3.0-no-unit-number.ts';
import { errorCodes } from './3.1-error-codes.ts';
import type { ChangeContext, ResponseKind, VersionDef, VersionedError } from './change.ts';

export type { ChangeContext, ResponseKind, VersionDef } from './change.ts';

/** The 3.2 response schemas: the internal model. */
const SCHEMAS_3_2: Record<ResponseKind, z.ZodType> = {
  'property.page': PropertyPage, 'property.one': PropertyOne,
  'agency.page': AgencyPage, 'agency.one': AgencyOne,
  'user.page': UserPage, 'user.one': UserOne,
  'gateway.page': GatewayPage, 'gateway.one': GatewayOne,
};

export const VERSIONS: readonly VersionDef[] = [
  { version: '3.2', prefix: 'v3.2', changes: [] },
  { version: '3.1', prefix: 'v3.1', changes: [errorCodes] },
  {
    version: '3.0', prefix: 'v3',
    changes: [formattedSurfacesAsStrings, lifeAnnuityInCents, noUnitNumber, amentiesAlias],
    schemas: { 'property.page': PropertyPage30, 'property.one': PropertyOne30 },
  },
];

/** The versions from the newest down to `target`, the newest excluded: the changes to apply. */
function path(target: string, versions: readonly VersionDef[]): readonly VersionDef[] {
  const i = versions.findIndex((v) => v.version === target);
  if (i < 0) throw new Error(`unknown listing version ${target}`);
  return versions.slice(1, i + 1);
}

/** A newest-shape response body in the shape of `target`. */
export function downgradeResponse(kind: ResponseKind, body: unknown, target: string, ctx: ChangeContext, versions: readonly VersionDef[] = VERSIONS): unknown {
  let out = body;
  for (const v of path(target, versions)) for (const c of v.changes) out = c.responses?.[kind]?.(out, ctx) ?? out;
  return out;
}

/** The status and message of an error in `target`. */
export function downgradeError(error: ListingError, target: string, ctx: ChangeContext, versions: readonly VersionDef[] = VERSIONS): { status: number; message: string } {
  let e: VersionedError = { status: STATUS_3_2[error.kind], message: error.message, error };
  for (const v of path(target, versions)) for (const c of v.changes) e = c.error?.(e, ctx) ?? e;
  return { status: e.status, message: e.message };
}

/** The response schema of a kind in a version: its own, or the nearest newer version's. */
export function responseSchema(kind: ResponseKind, version: ListingVersion): z.ZodType {
  const i = VERSIONS.findIndex((v) => v.version === version);
  for (let j = i; j >= 0; j--) {
    const s = VERSIONS[j].schemas?.[kind];
    if (s) return s;
  }
  return SCHEMAS_3_2[kind];
}
