import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../../../api/core/state/sql.ts';
import { fingerprint } from '../../../../api/core/keys/keys.ts';
import { main } from '../../../../api/core/keys/cli.ts';
import { createAccountRepository } from '../../../../api/accounts/accounts.ts';
import { DATABASE_URL, backends, type Isolated } from '../state/backends.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npx tsx api/core/keys/cli.ts ...args` as a child process: the entry point itself. */
function spawnCli(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.DATABASE_URL;
  delete childEnv.DATA_DIR;
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  return new Promise((resolve) => {
    execFile('npx', ['--no', 'tsx', 'api/core/keys/cli.ts', ...args], { cwd: root, env: childEnv }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The CLI's main() in this process (what the entry point runs), much cheaper than a child process. */
async function cli(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: clean });
  const text = (lines: string[]) => (lines.length ? lines.join('\n') + '\n' : '');
  return { code, stdout: text(out), stderr: text(err) };
}

const KEY = /svc_(live|test)_[0-9A-Za-z]{32}/;

describe('keys CLI on an embedded state (DATA_DIR)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'keys-cli-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });
  const env = () => ({ DATA_DIR: dataDir });

  let key = '';

  it('create prints the key once with a warning', async () => {
    const r = await cli(['create', '--countries', 'fr,ca,be', '--domains', 'location,market', '--sandbox', '--label', 'test partner'], env());
    expect(r.stderr).not.toMatch(/keys:/);
    expect(r.code).toBe(0);
    const m = KEY.exec(r.stdout);
    expect(m).not.toBeNull();
    key = m![0];
    expect(key.startsWith('svc_test_')).toBe(true);
    expect(r.stdout).toMatch(/cannot be shown again/);
    expect(r.stdout).toContain(fingerprint(key));
  });

  it('list shows the key without the key itself', async () => {
    const r = await cli(['list'], env());
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(key);
    expect(r.stdout).not.toMatch(KEY);
    expect(r.stdout).toContain(fingerprint(key).slice(0, 12));
    expect(r.stdout).toContain(key.slice(0, 13));
    expect(r.stdout).toMatch(/FINGERPRINT\s+PREFIX\s+SANDBOX\s+COUNTRIES\s+DOMAINS\s+CREATED\s+REVOKED\s+OWNER\s+LABEL/);
    const line = r.stdout.split('\n').find((l) => l.startsWith(fingerprint(key).slice(0, 12)))!;
    expect(line).toMatch(/yes\s+fr,ca,be\s+location,market\s+\S+ \S+\s+-\s+operator\s+test partner/);
  });

  it('create --agency gives the key to an agency (client space); list shows the owner', async () => {
    const sql = await openPglite(path.join(dataDir, 'state'));
    let agencyId: number;
    try {
      const accounts = createAccountRepository(sql);
      const board = await accounts.createBoard({ slug: 'paris', name: 'Paris', default_language: 'fr' });
      agencyId = (await accounts.createAgency({ board_id: board.id, name: 'Agence du Marais', country: 'FR' })).id;
    } finally {
      await sql.close();
    }
    const r = await cli(['create', '--countries', 'fr', '--agency', String(agencyId), '--label', 'site web'], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`owner=agency ${agencyId}`);
    const owned = KEY.exec(r.stdout)![0];
    const list = await cli(['list'], env());
    expect(list.stdout.split('\n').find((l) => l.startsWith(fingerprint(owned).slice(0, 12)))).toMatch(new RegExp(`agency ${agencyId}\\s+site web`));
    const missing = await cli(['create', '--countries', 'fr', '--agency', '999999'], env());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('agency 999999 does not exist');
    await cli(['revoke', fingerprint(owned)], env());
  });

  it('revoke by fingerprint prefix, then list shows it revoked', async () => {
    const r = await cli(['revoke', fingerprint(key).slice(0, 10)], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^revoked /);
    const list = await cli(['list'], env());
    const line = list.stdout.split('\n').find((l) => l.startsWith(fingerprint(key).slice(0, 12)))!;
    expect(line).not.toMatch(/\s-\s/);
    const unknown = await cli(['revoke', 'ffffffffffff'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no key with fingerprint/);
  });

  it('bad arguments print the usage and exit 2', async () => {
    const cases = [
      [],
      ['frob'],
      ['create'],
      ['create', '--countries', 'fr,de'],
      ['create', '--countries', 'fr', '--domains', 'weather'],
      ['create', '--countries', 'fr', '--bogus'],
      ['list', '--sandbox'],
      ['revoke'],
      ['create', '--countries', 'fr', '--agency', 'x1'],
      ['create', '--countries', 'fr', '--agency', '0'],
      ['list', '--agency', '3'],
    ];
    // Argument errors never open the state, so these can run side by side.
    const runs = await Promise.all(cases.map((args) => cli(args, env())));
    runs.forEach((r, i) => {
      expect(r.code, cases[i].join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^keys: /m);
      expect(r.stderr).toContain('Usage:');
      expect(r.stdout).toBe('');
    });
    expect(runs[3].stderr).toContain('unknown country "de" (allowed: fr, ca, be)');
    expect(runs[4].stderr).toContain('unknown domain "weather"');
    // The entry point itself turns main's answer into the process exit code.
    const spawned = await spawnCli(['create', '--countries', 'fr,de'], env());
    expect(spawned.code).toBe(2);
    expect(spawned.stderr).toContain('unknown country "de"');
  });

  it('prints the lock message and exits 2 when the embedded state is held', async () => {
    const held = await openPglite(path.join(dataDir, 'state'));
    try {
      const r = await spawnCli(['list'], env());
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`the embedded state at ${path.join(dataDir, 'state')} is held by process ${process.pid}`);
      expect(r.stderr).toContain('set DATABASE_URL to a PostgreSQL server');
      // The holder is unaffected.
      expect(await held.query<{ n: number }>(`SELECT count(*)::int AS n FROM api_keys WHERE agency_id IS NULL`)).toEqual([{ n: 1 }]);
    } finally {
      await held.close();
    }
  });
});

const postgres = backends.find((b) => b.name === 'postgres');

describe.runIf(DATABASE_URL && postgres)('keys CLI on PostgreSQL (DATABASE_URL)', () => {
  let db: Isolated;
  beforeAll(async () => {
    db = await postgres!.open();
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('create then list, with no embedded state created', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'keys-cli-pg-'));
    try {
      const env = { DATABASE_URL: db.url, DATA_DIR: dataDir };
      const created = await cli(['create', '--countries', 'be'], env);
      expect(created.code).toBe(0);
      const key = KEY.exec(created.stdout)![0];
      expect(key.startsWith('svc_live_')).toBe(true);
      const list = await cli(['list'], env);
      expect(list.code).toBe(0);
      expect(list.stdout).toContain(fingerprint(key).slice(0, 12));
      expect(list.stdout).not.toContain(key);
      const rows = await db.sql.query<{ fingerprint: string }>(`SELECT fingerprint FROM api_keys`);
      expect(rows).toEqual([{ fingerprint: fingerprint(key) }]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
