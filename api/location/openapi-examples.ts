import { join } from 'node:path';
import { readExamples } from '../core/openapi.ts';

/**
 * One recorded response per main location operation (`GET /api/v1/fr/report`), answered by the
 * server on the committed samples and shown as the operation's example in the OpenAPI document.
 * Recorded by `REGEN=1 npx vitest run test/api/location/openapi-examples.test.ts`, which also
 * fails when the server's answer on the samples no longer matches them. Lists are cut to their
 * first three items to keep the document small.
 */
export const EXAMPLES_FILE = join(import.meta.dirname, 'openapi-examples.json');

export const locationExamples = readExamples(EXAMPLES_FILE);
