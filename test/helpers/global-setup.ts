import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * One folder per test run where the committed samples are ingested once, by the first test file
 * that asks for them (test/helpers/samples.ts), and copied by every other: ingesting every sample
 * costs 12 s on an idle machine and several times that on a loaded one, and nine files need it.
 */
export default function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'lds-samples-run-'));
  project.provide('samplesRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext { samplesRoot: string }
}
