import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../../api/core/state/sql.ts';
import { main } from '../../../api/signin/cli.ts';
import { clientSecretMatches } from '../../../api/signin/clients.ts';

async function run(args: string[], dataDir: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: { DATA_DIR: dataDir } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('signin CLI', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'signin-cli-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('registers a confidential client, prints its secret once, lists and revokes it', async () => {
    const created = await run(
      ['clients', 'create', '--name', 'Visites Virtuelles Plus', '--redirect-uri', 'https://vvp.example.com/cb', '--redirect-uri', 'https://vvp.example.com/cb2', '--type', 'confidential'],
      dataDir,
    );
    expect(created.code).toBe(0);
    const clientId = /client_id: (\S+)/.exec(created.out)![1]!;
    // Hex: never read as an option on a command line (a base64url id started with '-' one time in 64).
    expect(clientId).toMatch(/^[0-9a-f]{32}$/);
    const secret = /client_secret: (\S+)/.exec(created.out)![1];
    expect(created.out).toContain('redirect_uri: https://vvp.example.com/cb2');

    const sql = await openPglite(path.join(dataDir, 'state'));
    try {
      const [row] = await sql.query<{ secret_hash: string }>(`SELECT secret_hash FROM oauth_clients WHERE client_id = $1`, [clientId]);
      expect(clientSecretMatches(secret, row.secret_hash)).toBe(true);
    } finally {
      await sql.close();
    }

    const list = await run(['clients', 'list'], dataDir);
    expect(list.out).toMatch(new RegExp(`${clientId}\\s+Visites Virtuelles Plus\\s+confidential`));
    expect(list.out).not.toContain(secret);

    const revoked = await run(['clients', 'revoke', clientId], dataDir);
    expect(revoked.code).toBe(0);
    expect((await run(['clients', 'list'], dataDir)).out).toMatch(/revoked \d{4}-/);
    const again = await run(['clients', 'revoke', clientId], dataDir);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/not found or already revoked/);
  });

  it('revokes a client whose id starts with a dash (ids of earlier versions) after --', async () => {
    const sql = await openPglite(path.join(dataDir, 'state'));
    try {
      await sql.query(`INSERT INTO oauth_clients (client_id, name, client_type, redirect_uris, secret_hash) VALUES ('-Xy9_oldBase64urlId012', 'Ancien', 'public', ARRAY['https://old.example.com/cb'], NULL)`);
    } finally {
      await sql.close();
    }
    const unguarded = await run(['clients', 'revoke', '-Xy9_oldBase64urlId012'], dataDir);
    expect(unguarded.code).toBe(2);
    expect(unguarded.err).toContain('[--] CLIENT_ID');
    const revoked = await run(['clients', 'revoke', '--', '-Xy9_oldBase64urlId012'], dataDir);
    expect(revoked.code).toBe(0);
    expect((await run(['clients', 'list'], dataDir)).out).toMatch(/-Xy9_oldBase64urlId012\s+Ancien\s+public\s.*revoked/);
  });

  it('registers a public client without a secret', async () => {
    const r = await run(['clients', 'create', '--name', 'Carnet', '--redirect-uri', 'https://app.example.com/cb', '--type', 'public'], dataDir);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('client_secret:');
    expect(r.out).toContain('PKCE');
  });

  it('sets the login-initiation address of a client (client space "Open"), validated as redirect URIs are', async () => {
    const r = await run(['clients', 'create', '--name', 'Visites', '--redirect-uri', 'https://v.example.com/cb', '--type', 'confidential',
      '--initiate-login-uri', 'https://v.example.com/login'], dataDir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('initiate_login_uri: https://v.example.com/login');
    const id = /client_id: (\S+)/.exec(r.out)![1]!;
    expect((await run(['clients', 'list'], dataDir)).out).toMatch(new RegExp(`${id}\\s+Visites\\s+confidential\\s+https://v.example.com/cb\\s+https://v.example.com/login`));
    const loopback = await run(['clients', 'set-initiate-login-uri', id, 'http://127.0.0.1:8080/start'], dataDir);
    expect(loopback.code).toBe(0);
    expect(loopback.out).toContain('initiate_login_uri http://127.0.0.1:8080/start');
    const plain = await run(['clients', 'set-initiate-login-uri', id, 'http://v.example.com/start'], dataDir);
    expect(plain.code).toBe(2);
    expect(plain.err).toMatch(/initiate_login_uri: must use https/);
    const unknown = await run(['clients', 'set-initiate-login-uri', 'ffffffffffffffffffffffffffffffff', 'https://x.example/l'], dataDir);
    expect(unknown.code).toBe(1);
    const removed = await run(['clients', 'set-initiate-login-uri', id, 'none'], dataDir);
    expect(removed.out).toContain('no initiate_login_uri');
  });

  it('answers usage errors with exit code 2 and the usage', async () => {
    const cases: [string[], RegExp][] = [
      [['clients', 'create', '--name', 'X', '--type', 'public'], /at least one --redirect-uri/],
      [['clients', 'create', '--name', 'X', '--redirect-uri', 'https://a.example/cb', '--type', 'secret'], /confidential or public/],
      [['clients', 'create', '--name', 'X', '--redirect-uri', 'http://a.example/cb', '--type', 'public'], /https/],
      [['clients', 'revoke'], /one client id/],
      [['clients', 'set-initiate-login-uri', 'abc'], /a client id and a URI/],
      [['clients', 'create', '--name', 'X', '--redirect-uri', 'https://a.example/cb', '--type', 'public', '--initiate-login-uri', 'ftp://a.example/'], /initiate_login_uri/],
      [['clients', 'list', '--name', 'x'], /does not apply/],
      [['tokens', 'list'], /unknown command/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args, dataDir);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
    }
    expect((await run(['--help'], dataDir)).out).toContain('signin clients create');
  });
});
