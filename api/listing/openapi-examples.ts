import { join } from 'node:path';
import { readExamples } from '../core/openapi.ts';

/**
 * One recorded response per read operation of the listing API in each version
 * (`get /{locale}/api/v3.1/properties/{id}`), answered by the server on a scripted board (a condo,
 * its agency and broker, a gateway) and shown as the operation's example in /openapi.json.
 * Recorded by `REGEN=1 npx vitest run test/api/listing/openapi-examples.test.ts`, which also fails
 * when the server's answer no longer matches them. Writes are not recorded: their answers are the
 * read operations' resources.
 */
export const LISTING_EXAMPLES_FILE = join(import.meta.dirname, 'openapi-examples.json');

export const listingExamples = readExamples(LISTING_EXAMPLES_FILE);
