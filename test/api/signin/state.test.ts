import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../api/core/state/migrations.ts';
import { clientMetadata, findGrantId, payloadAdapter, purgeExpiredPayloads } from '../../../api/signin/adapter.ts';
import { clientSecretMatches, ClientError, createClientRepository, hashClientSecret, type ClientRepository } from '../../../api/signin/clients.ts';
import { loadSigninSecrets } from '../../../api/signin/secrets.ts';
import { backends, type Isolated } from '../core/state/backends.ts';

describe('client secrets', () => {
  it('are compared with their hash only, in constant time', () => {
    const stored = hashClientSecret('s3cret-value');
    expect(stored).toMatch(/^sha256\$[0-9a-f]{64}$/);
    expect(clientSecretMatches('s3cret-value', stored)).toBe(true);
    expect(clientSecretMatches('s3cret-valuf', stored)).toBe(false);
    expect(clientSecretMatches(stored, stored)).toBe(false);
    expect(clientSecretMatches('s3cret-value', null)).toBe(false);
  });
});

describe.each(backends)('sign-in state on $name', (backend) => {
  let db: Isolated;
  let clients: ClientRepository;
  beforeAll(async () => {
    db = await backend.open();
    await migrate(db.sql);
    clients = createClientRepository(db.sql);
  });
  afterAll(() => db.cleanup());

  it('registers a confidential client with a secret shown once and stored hashed', async () => {
    const { client, secret } = await clients.create({
      name: 'Visites Virtuelles Plus', client_type: 'confidential',
      redirect_uris: ['https://vvp.example.com/cb', 'https://vvp.example.com/cb', 'http://localhost:8080/cb'],
    });
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(client.redirect_uris).toEqual(['https://vvp.example.com/cb', 'http://localhost:8080/cb']);
    expect(client.secret_hash).toBe(hashClientSecret(secret!));
    const [row] = await db.sql.query<Record<string, unknown>>(`SELECT * FROM oauth_clients WHERE client_id = $1`, [client.client_id]);
    expect(JSON.stringify(row)).not.toContain(secret!);
    expect(clientMetadata(client)).toMatchObject({
      client_id: client.client_id, client_name: 'Visites Virtuelles Plus', token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'], response_types: ['code'],
    });
  });

  it('registers a public client without a secret', async () => {
    const { client, secret } = await clients.create({ name: 'Carnet Mobile', client_type: 'public', redirect_uris: ['https://app.example.com/cb'] });
    expect(secret).toBeNull();
    expect(clientMetadata(client)).toMatchObject({ token_endpoint_auth_method: 'none' });
    expect(clientMetadata(client)).not.toHaveProperty('client_secret');
  });

  it('refuses invalid registrations with a clear message', async () => {
    const bad = [
      [{ name: 'x', client_type: 'public', redirect_uris: [] }, /at least one redirect URI/],
      [{ name: 'x', client_type: 'public', redirect_uris: ['http://app.example.com/cb'] }, /https/],
      [{ name: 'x', client_type: 'public', redirect_uris: ['https://app.example.com/cb#frag'] }, /fragment/],
      [{ name: 'x', client_type: 'public', redirect_uris: ['/cb'] }, /absolute/],
      [{ name: ' ', client_type: 'public', redirect_uris: ['https://a.example/cb'] }, /name/],
      [{ name: 'x', client_type: 'secret', redirect_uris: ['https://a.example/cb'] }, /client_type/],
    ] as const;
    for (const [input, message] of bad) {
      const err = await clients.create(input).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ClientError);
      expect((err as Error).message).toMatch(message);
    }
  });

  it('stores oidc-provider payloads: find, uid lookup, consume, expiry, revocation by grant', async () => {
    const factory = payloadAdapter(db.sql, clients);
    const tokens = factory('AccessToken');
    const codes = factory('AuthorizationCode');
    const sessions = factory('Session');
    await tokens.upsert('at1', { jti: 'at1', grantId: 'g1', clientId: 'c1', accountId: '7' }, 3600);
    await codes.upsert('code1', { jti: 'code1', grantId: 'g1' }, 60);
    await codes.upsert('code2', { jti: 'code2', grantId: 'g2' }, 60);
    await sessions.upsert('s1', { jti: 's1', uid: 'u1' }, 600);
    expect(await tokens.find('at1')).toMatchObject({ accountId: '7' });
    expect(await codes.find('at1')).toBeUndefined(); // keyed by model too
    expect(await sessions.findByUid('u1')).toMatchObject({ jti: 's1' });

    await codes.consume('code2');
    expect((await codes.find('code2'))?.consumed).toEqual(expect.any(Number));

    await tokens.upsert('old', { jti: 'old' }, -1);
    expect(await tokens.find('old')).toBeUndefined();
    expect(await purgeExpiredPayloads(db.sql)).toBe(1);

    await tokens.revokeByGrantId('g1');
    expect(await tokens.find('at1')).toBeUndefined();
    expect(await codes.find('code1')).toBeUndefined();
    expect(await codes.find('code2')).toBeDefined();
    await sessions.destroy('s1');
    expect(await sessions.findByUid('u1')).toBeUndefined();
  });

  it('finds the grant a user gave an application, whatever the session', async () => {
    const grants = payloadAdapter(db.sql, clients)('Grant');
    await grants.upsert('gA', { jti: 'gA', accountId: '7', clientId: 'cX', iat: 100 }, 3600);
    await grants.upsert('gB', { jti: 'gB', accountId: '7', clientId: 'cX', iat: 200 }, 3600);
    await grants.upsert('gC', { jti: 'gC', accountId: '8', clientId: 'cX', iat: 300 }, 3600);
    expect(await findGrantId(db.sql, '7', 'cX')).toBe('gB');
    expect(await findGrantId(db.sql, '7', 'cY')).toBeNull();
  });

  it('serves registered clients to the provider until they are revoked, then removes what they were issued', async () => {
    const { client } = await clients.create({ name: 'Éphémère', client_type: 'public', redirect_uris: ['https://e.example/cb'] });
    const factory = payloadAdapter(db.sql, clients);
    expect(await factory('Client').find(client.client_id)).toMatchObject({ client_name: 'Éphémère' });
    await factory('Grant').upsert('gZ', { jti: 'gZ', accountId: '1', clientId: client.client_id }, 3600);
    await factory('AccessToken').upsert('atZ', { jti: 'atZ', accountId: '1', clientId: client.client_id, grantId: 'gZ' }, 3600);
    expect(await clients.revoke(client.client_id)).toEqual({ removed: 2 });
    expect(await factory('Client').find(client.client_id)).toBeUndefined();
    expect(await factory('AccessToken').find('atZ')).toBeUndefined();
    await expect(clients.revoke(client.client_id)).rejects.toThrow(/not found or already revoked/);
    expect((await clients.list()).find((c) => c.client_id === client.client_id)?.revoked_at).toBeInstanceOf(Date);
  });

  it('generates the signing keys and cookie keys once and keeps them', async () => {
    const a = await loadSigninSecrets(db.sql);
    const b = await loadSigninSecrets(db.sql);
    expect(a).toEqual(b);
    expect(a.jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String), d: expect.any(String) });
    expect(a.cookieKeys[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await loadSigninSecrets(db.sql, 'x'.repeat(32))).cookieKeys).toEqual(['x'.repeat(32)]);
  });
});
