import type { VersionChange } from './change.ts';

/**
 * 3.2 -> 3.1 (spec section 7): 3.1 answered 400 where 3.2 answers 401 for credentials, 500 for
 * internal errors (with the technical message) and 422 for refused data on the write routes
 * that still answered 400.
 */
export const errorCodes: VersionChange = {
  description: 'Credential problems answer 400 (not 401), internal errors 400 with a technical message (not 500), and data refused on some write routes 400 (not 422).',
  error(e, ctx) {
    switch (e.error.kind) {
      case 'unauthorized':
        return { ...e, status: 400, message: e.error.legacy };
      case 'internal':
        return { ...e, status: 400, message: e.error.legacy };
      case 'validation':
        return ctx.route.legacyValidationStatus === 400 ? { ...e, status: 400 } : e;
      default:
        return e;
    }
  },
};
