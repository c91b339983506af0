import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../../api/core/state/migrations.ts';
import {
  AmbiguousKeyError,
  createKeyRepository,
  fingerprint,
  generateKey,
  isKeyShaped,
  KeyNotFoundError,
  KeyValidationError,
  prefixHint,
  type KeyRepository,
} from '../../../../api/core/keys/keys.ts';
import { backends, type Isolated } from '../state/backends.ts';

describe('key helpers', () => {
  it('generates svc_live_/svc_test_ keys with 32 base62 characters', () => {
    const live = generateKey({ sandbox: false });
    const test = generateKey({ sandbox: true });
    expect(live).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(test).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    expect(isKeyShaped(live) && isKeyShaped(test)).toBe(true);
    expect(isKeyShaped('svc_live_short')).toBe(false);
  });

  it('draws uniformly from the whole alphabet without repeats', () => {
    const keys = Array.from({ length: 2000 }, () => generateKey({ sandbox: false }));
    expect(new Set(keys).size).toBe(keys.length);
    const counts = new Map<string, number>();
    for (const k of keys) for (const c of k.slice(9)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 64000 draws over 62 symbols: ~1032 each; modulo bias would skew the first 8 by ~25%.
    for (const n of counts.values()) expect(n).toBeGreaterThan(850), expect(n).toBeLessThan(1220);
  });

  it('fingerprints with hex SHA-256', () => {
    expect(fingerprint('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(prefixHint('svc_test_ab12cdefghijklmnopqrstuvwxyz0123')).toBe('svc_test_ab12');
  });
});

describe.each(backends)('key repository on $name', (backend) => {
  let db: Isolated;
  let repo: KeyRepository;
  beforeAll(async () => {
    db = await backend.open();
    await migrate(db.sql);
    repo = createKeyRepository(db.sql);
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('creates a key, finds it, revokes it; a revoked key is not found', async () => {
    const { key, record } = await repo.create({ countries: ['fr', 'be'], sandbox: true, label: 'partner A' });
    expect(key).toMatch(/^svc_test_/);
    expect(record).toMatchObject({
      fingerprint: fingerprint(key),
      prefixHint: key.slice(0, 13),
      label: 'partner A',
      sandbox: true,
      countries: ['fr', 'be'],
      domains: null,
      revokedAt: null,
    });
    expect(record.createdAt).toBeInstanceOf(Date);

    expect(await repo.findActive(key)).toEqual(record);
    expect(await repo.findActive(key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a'))).toBeNull();
    expect(await repo.findActive('not a key')).toBeNull();

    const { record: revoked, alreadyRevoked } = await repo.revoke(record.fingerprint);
    expect(alreadyRevoked).toBe(false);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(await repo.findActive(key)).toBeNull();

    const again = await repo.revoke(record.fingerprint);
    expect(again.alreadyRevoked).toBe(true);
    expect(again.record.revokedAt).toEqual(revoked.revokedAt);
  });

  it('normalises and validates countries and domains', async () => {
    const { record } = await repo.create({ countries: ['CA', 'fr', 'fr'], domains: ['market', 'location'] });
    expect(record.countries).toEqual(['fr', 'ca']);
    expect(record.domains).toEqual(['location', 'market']);
    expect(record.sandbox).toBe(false);
    expect(record.label).toBeNull();

    await expect(repo.create({ countries: ['de'] })).rejects.toThrow(KeyValidationError);
    await expect(repo.create({ countries: ['de'] })).rejects.toThrow('unknown country "de" (allowed: fr, ca, be)');
    await expect(repo.create({ countries: [] })).rejects.toThrow(/at least one country/);
    await expect(repo.create({ countries: ['fr'], domains: ['weather'] })).rejects.toThrow(/unknown domain "weather"/);
    await expect(repo.create({ countries: ['fr'], domains: [] })).rejects.toThrow(/must not be empty/);
  });

  it('stores fingerprints only, never the plaintext key', async () => {
    const { key } = await repo.create({ countries: ['fr'], label: 'secret check' });
    const rows = await db.sql.query<{ row: string }>(`SELECT row_to_json(k)::text AS row FROM api_keys k`);
    expect(rows.length).toBeGreaterThan(0);
    const dump = rows.map((r) => r.row).join('\n');
    expect(dump).toContain(fingerprint(key));
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(13)); // the secret part beyond the display hint
  });

  it('lists keys, revoked ones included', async () => {
    const a = await repo.create({ countries: ['be'], label: 'list-a' });
    const b = await repo.create({ countries: ['ca'], label: 'list-b' });
    await repo.revoke(b.record.fingerprint.slice(0, 16));
    const all = await repo.list();
    const byFp = new Map(all.map((r) => [r.fingerprint, r]));
    expect(byFp.get(a.record.fingerprint)?.revokedAt).toBeNull();
    expect(byFp.get(b.record.fingerprint)?.revokedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(all)).not.toContain(a.key);
  });

  it('revokes by unique prefix; errors on unknown, ambiguous or malformed', async () => {
    const insert = (fp: string) =>
      db.sql.query(
        `INSERT INTO api_keys (fingerprint, prefix_hint, countries) VALUES ($1, 'svc_live_xxxx', ARRAY['fr'])`,
        [fp],
      );
    await insert('f00d' + '1'.repeat(60));
    await insert('f00d' + '2'.repeat(60));
    await expect(repo.revoke('f00d')).rejects.toBeInstanceOf(AmbiguousKeyError);
    await expect(repo.revoke('f00d')).rejects.toThrow(/matches several keys/);
    const { record } = await repo.revoke('F00D2');
    expect(record.fingerprint).toBe('f00d' + '2'.repeat(60));
    await expect(repo.revoke('0000000000')).rejects.toBeInstanceOf(KeyNotFoundError);
    await expect(repo.revoke('abc')).rejects.toBeInstanceOf(KeyValidationError);
    await expect(repo.revoke("f00d%' OR 1=1 --")).rejects.toBeInstanceOf(KeyValidationError);
  });

  it('counts usage with an atomic upsert under 50 concurrent calls', async () => {
    const { record } = await repo.create({ countries: ['fr'] });
    const fp = record.fingerprint;
    expect(await repo.getUsage(fp, '2025-03-01')).toBe(0);
    const totals = await Promise.all(Array.from({ length: 50 }, (_, i) => repo.addUsage(fp, '2025-03-01', i + 1)));
    const expected = (50 * 51) / 2;
    expect(Math.max(...totals)).toBe(expected);
    expect(new Set(totals).size).toBe(50); // each call saw a distinct running total
    expect(await repo.getUsage(fp, '2025-03-01')).toBe(expected);
    expect(await repo.getUsage(fp, '2025-04-01')).toBe(0);
    expect(await repo.addUsage(fp, '2025-04-01', 7)).toBe(7);
    expect(await repo.addUsage(fp, '2025-04-01', 0)).toBe(7);
  });

  it('validates usage arguments', async () => {
    const { record } = await repo.create({ countries: ['fr'] });
    await expect(repo.addUsage(record.fingerprint, '2025-02-30', 1)).rejects.toThrow(/invalid period start/);
    await expect(repo.addUsage(record.fingerprint, '2025-02-01', -1)).rejects.toThrow(/non-negative integer/);
    await expect(repo.addUsage(record.fingerprint, '2025-02-01', 1.5)).rejects.toThrow(/non-negative integer/);
    await expect(repo.addUsage('nope', '2025-02-01', 1)).rejects.toThrow(/invalid fingerprint/);
    // Unknown key: the foreign key refuses it.
    await expect(repo.addUsage('e'.repeat(64), '2025-02-01', 1)).rejects.toThrow();
  });
});
