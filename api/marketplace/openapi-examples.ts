import { join } from 'node:path';
import { readExamples } from '../core/openapi.ts';

/**
 * One recorded response per marketplace operation (`get /stores/{store}/fr/api/v1/services`),
 * answered by the server in a scripted store (a client, a token plan bought, a debit, the delivery
 * log, a test event) and shown as the operation's example in /stores/openapi.json. Recorded by
 * `REGEN=1 npx vitest run test/api/marketplace/openapi-examples.test.ts`, which also fails when
 * the server's answer no longer matches them. Secrets never appear in these responses.
 */
export const MARKETPLACE_EXAMPLES_FILE = join(import.meta.dirname, 'openapi-examples.json');

export const marketplaceExamples = readExamples(MARKETPLACE_EXAMPLES_FILE);
