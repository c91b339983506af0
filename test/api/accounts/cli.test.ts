import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../api/accounts/cli.ts';
import { openPglite } from '../../../api/core/state/sql.ts';
import { createAccountRepository } from '../../../api/accounts/accounts.ts';

/** Runs the CLI in-process against an embedded state; stdin is optional. */
async function run(args: string[], dataDir: string, stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { DATA_DIR: dataDir },
    readStdin: stdin === undefined ? undefined : async () => stdin,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('accounts CLI', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'accounts-cli-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates a board, an agency and a user whose generated password is printed once and works', async () => {
    expect((await run(['boards', 'create', '--slug', 'bxl', '--name', 'Brussels board', '--default-language', 'fr'], dataDir)).code).toBe(0);
    const agency = await run(['agencies', 'create', '--board', 'bxl', '--name', 'Agence Louise', '--country', 'BE'], dataDir);
    expect(agency.out).toMatch(/created agency (\d+) Agence Louise \(BE\) in board bxl/);
    const id = /created agency (\d+)/.exec(agency.out)![1];
    const user = await run(
      ['users', 'create', '--agency', id, '--email', 'marie.dubois@example.be', '--first-name', 'Marie', '--last-name', 'Dubois', '--languages', 'fr,nl'],
      dataDir,
    );
    expect(user.code).toBe(0);
    const password = /password: (\S+)/.exec(user.out)![1];
    const sql = await openPglite(path.join(dataDir, 'state'));
    try {
      const repo = createAccountRepository(sql);
      expect((await repo.verifyCredentials('marie.dubois@example.be', password))?.languages).toEqual(['fr', 'nl']);
    } finally {
      await sql.close();
    }
    const list = await run(['users', 'list'], dataDir);
    expect(list.out).toContain('marie.dubois@example.be');
    expect(list.out).not.toContain(password);
  });

  it('reads a password from stdin and never prints it', async () => {
    const r = await run(['users', 'set-password', 'marie.dubois@example.be', '--password-stdin'], dataDir, 'a chosen passphrase\n');
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('a chosen passphrase');
  });

  it('answers usage errors with exit code 2 and the usage, unknown records with 1', async () => {
    const noName = await run(['boards', 'create', '--slug', 'x', '--default-language', 'fr'], dataDir);
    expect(noName.code).toBe(2);
    expect(noName.err).toMatch(/boards create needs --name/);
    expect((await run(['users', 'list', '--slug', 'x'], dataDir)).err).toMatch(/--slug does not apply to users list/);
    expect((await run(['agencies', 'list', '--board', 'nope'], dataDir)).code).toBe(1);
    const bad = await run(['boards', 'create', '--slug', 'ok', '--name', 'n', '--default-language', 'french'], dataDir);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/default_language/);
  });
});
