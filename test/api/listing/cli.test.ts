import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as accounts } from '../../../api/accounts/cli.ts';
import { main } from '../../../api/listing/cli.ts';
import { createCredentialRepository } from '../../../api/listing/credentials.ts';
import { openPglite } from '../../../api/core/state/sql.ts';

async function run(cli: typeof main, args: string[], dataDir: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await cli(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: { DATA_DIR: dataDir } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('listing CLI', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'listing-cli-'));
    for (const slug of ['gmtl', 'bxl']) expect((await run(accounts, ['boards', 'create', '--slug', slug, '--name', slug, '--default-language', 'fr'], dataDir)).code).toBe(0);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates a pair on boards, shown once, stored only as hashes; disable and enable; change boards', async () => {
    const created = await run(main, ['credentials', 'create', '--boards', 'gmtl,bxl', '--label', 'Portail Nord'], dataDir);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/created credentials 1 \(lk_\w{6}\.\.\.\) on boards bxl, gmtl/);
    const apiKey = /apiKey: +(\S+)/.exec(created.out)![1];
    const apiToken = /apiToken: +(\S+)/.exec(created.out)![1];
    const list = await run(main, ['credentials', 'list'], dataDir);
    expect(list.out).toMatch(/1 +lk_\w{6}\.\.\. +bxl,gmtl +Portail Nord +active/);
    expect(list.out).not.toContain(apiToken);
    expect((await run(main, ['credentials', 'disable', '1'], dataDir)).out).toMatch(/disabled credentials 1 .*disabled$/);
    expect((await run(main, ['credentials', 'list'], dataDir)).out).toMatch(/Portail Nord +disabled/);
    expect((await run(main, ['credentials', 'enable', apiKey.slice(0, 9)], dataDir)).code).toBe(0);
    expect((await run(main, ['credentials', 'boards', '1', '--boards', 'bxl'], dataDir)).out).toMatch(/on boards bxl$/);

    const sql = await openPglite(path.join(dataDir, 'state'));
    try {
      const stored = JSON.stringify(await sql.query(`SELECT * FROM listing_credentials`));
      expect(stored).not.toContain(apiKey);
      expect(stored).not.toContain(apiToken.slice(3));
      const auth = await createCredentialRepository(sql).authenticate(apiKey, apiToken);
      expect(auth.ok && auth.credential.boards.map((b) => b.slug)).toEqual(['bxl']);
      expect((await createCredentialRepository(sql).authenticate(apiKey, apiToken.slice(0, -1) + (apiToken.endsWith('x') ? 'y' : 'x'))).ok).toBe(false);
    } finally {
      await sql.close();
    }
  });

  it('usage errors exit 2 with the usage; unknown boards or credentials exit 1', async () => {
    const noBoards = await run(main, ['credentials', 'create'], dataDir);
    expect(noBoards).toMatchObject({ code: 2 });
    expect(noBoards.err).toMatch(/needs --boards[\s\S]*Usage:/);
    expect((await run(main, ['credentials', 'create', '--boards', ' , '], dataDir)).code).toBe(2);
    expect((await run(main, ['credentials', 'list', '--boards', 'x'], dataDir)).code).toBe(2);
    expect((await run(main, ['credentials', 'rotate'], dataDir)).code).toBe(2);
    const unknownBoard = await run(main, ['credentials', 'create', '--boards', 'gmtl,atlantis'], dataDir);
    expect(unknownBoard).toMatchObject({ code: 1, err: 'listing: unknown board(s): atlantis' });
    expect((await run(main, ['credentials', 'disable', '99'], dataDir)).code).toBe(1);
    expect((await run(main, ['help'], dataDir)).out).toMatch(/^Usage:/);
  });
});
