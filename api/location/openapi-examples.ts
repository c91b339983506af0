import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One recorded response per main location operation (`GET /api/v1/fr/report`), answered by the
 * server on the committed samples and shown as the operation's example in the OpenAPI document.
 * Recorded by `REGEN=1 npx vitest run test/api/location/openapi-examples.test.ts`, which also
 * fails when the server's answer on the samples no longer matches them. Lists are cut to their
 * first three items to keep the document small.
 */
export const EXAMPLES_FILE = join(import.meta.dirname, 'openapi-examples.json');

export const locationExamples: Record<string, unknown> = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Record<string, unknown>;

/** A response as an example: request ids and clocks fixed, lists cut to three items. */
export function asExample(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (key, value) => {
    if (key === 'request_id') return 'req_example';
    if (key === 'generated_at') return '2026-11-20T10:00:30.000Z';
    if (key === 'imported_at') return '2026-11-20T09:00:00.000Z';
    return Array.isArray(value) && value.length > 3 ? value.slice(0, 3) : value;
  });
}
