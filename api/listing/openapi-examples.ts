import { join } from 'node:path';
import { readExamples } from '../core/openapi.ts';

/**
 * One recorded response per operation of the listing API in each version
 * (`get /{locale}/api/v3.1/properties/{id}`, `post /{locale}/api/v3/agencies`), answered by the
 * server on a scripted board (a condo, its agency and broker, a gateway; then, per version, a
 * property, an agency, a user and a gateway created, updated and deleted) and shown as the
 * operation's example in /openapi.json. The request bodies of the create and update operations
 * are recorded beside them (LISTING_REQUEST_EXAMPLES_FILE). A delete answers 204 without a body:
 * nothing to show. Recorded by `REGEN=1 npx vitest run test/api/listing/openapi-examples.test.ts`,
 * which also fails when the server's answers no longer match them.
 */
export const LISTING_EXAMPLES_FILE = join(import.meta.dirname, 'openapi-examples.json');
export const LISTING_REQUEST_EXAMPLES_FILE = join(import.meta.dirname, 'openapi-request-examples.json');

export const listingExamples = readExamples(LISTING_EXAMPLES_FILE);
/** The request body sent by the script, per write operation with a body (`patch /{locale}/api/v3.2/users/{id}`). */
export const listingRequestExamples = readExamples(LISTING_REQUEST_EXAMPLES_FILE);
