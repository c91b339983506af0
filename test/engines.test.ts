/**
 * The Node versions the project states (package.json engines) are ones every installed package
 * supports: each package's own `engines.node` range admits the first release of each line the
 * project names, and oidc-provider's runtime check (an LTS release from Jod, Node 22, on) passes
 * for them. Checked against the installed tree, so a dependency raising its floor fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const project = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[]; dev?: boolean }> };

/** The first release of each line the project's range names (^22.13.0 || ^24.0.0 -> 22.13.0, 24.0.0). */
const floors = project.engines.node.split('||').map((r) => semver.minVersion(r.trim())!.version);

describe('Node versions (package.json engines)', () => {
  it('names LTS lines only, from 22.13', () => {
    expect(floors.length).toBeGreaterThan(0);
    for (const v of floors) {
      expect(semver.major(v) % 2, `${v}: odd Node lines are never LTS, oidc-provider warns on them`).toBe(0);
      expect(semver.gte(v, '22.13.0'), v).toBe(true);
    }
  });

  it('every package of the lock file supports each of them', () => {
    const refused: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      const range = !Array.isArray(p.engines) ? p.engines?.node : undefined;
      if (!path || !range) continue;
      for (const v of floors) if (!semver.satisfies(v, range)) refused.push(`${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${range}, not ${v}`);
    }
    expect(refused).toEqual([]);
  });

  it('oidc-provider still checks the runtime as the README says (LTS from Jod)', () => {
    const index = join(ROOT, 'node_modules', 'oidc-provider', 'lib', 'index.js');
    expect(readFileSync(index, 'utf8')).toMatch(/const minimal = 'Jod'/);
  });
});
