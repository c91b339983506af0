/**
 * Keys of an agency (migration 006, the client space): ownership, scoped revocation, revoke and
 * replace in one transaction, the audit of actions, units per day written with the period's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountRepository } from '../../../../api/accounts/accounts.ts';
import { agencyKeyActions, lastUsedDays, usageByDay, usageInPeriod } from '../../../../api/core/keys/history.ts';
import { cacheActiveKeys } from '../../../../api/core/keys/key-cache.ts';
import { createKeyRepository, KeyNotFoundError, KeyRevokedError, KeyValidationError, type KeyRepository } from '../../../../api/core/keys/keys.ts';
import { createUsageMeter } from '../../../../api/core/keys/usage-meter.ts';
import { migrate } from '../../../../api/core/state/migrations.ts';
import { backends, type Isolated } from '../state/backends.ts';

describe.each(backends)('keys of an agency on $name', (backend) => {
  let db: Isolated;
  let repo: KeyRepository;
  let a: number, b: number, userId: number;
  const actor = () => ({ userId, name: 'Alice Martin <alice@example.fr>' });
  beforeAll(async () => {
    db = await backend.open();
    await migrate(db.sql);
    const accounts = createAccountRepository(db.sql);
    const board = await accounts.createBoard({ slug: 'paris', name: 'Paris', default_language: 'fr' });
    a = (await accounts.createAgency({ board_id: board.id, name: 'A', country: 'FR' })).id;
    b = (await accounts.createAgency({ board_id: board.id, name: 'B', country: 'FR' })).id;
    userId = (await accounts.createUser({ agency_id: a, email: 'alice@example.fr', first_name: 'Alice', last_name: 'Martin' })).id;
    // As the server builds it: the space's actions go through the cache.
    repo = cacheActiveKeys(createKeyRepository(db.sql), { clock: { now: () => new Date() }, ttlMs: 60_000 });
  });
  afterAll(async () => { await db?.cleanup(); });

  it('creates a key for an agency, lists it for that agency only, refuses an unknown agency', async () => {
    const { record } = await repo.create({ countries: ['fr'], label: 'A1', agencyId: a });
    expect(record.agencyId).toBe(a);
    expect((await repo.listForAgency(a)).map((k) => k.fingerprint)).toEqual([record.fingerprint]);
    expect(await repo.listForAgency(b)).toEqual([]);
    await expect(repo.create({ countries: ['fr'], agencyId: 987654 })).rejects.toThrow(new KeyValidationError('agency 987654 does not exist'));
    await expect(repo.create({ countries: ['fr'], agencyId: -1 })).rejects.toThrow(KeyValidationError);
    expect((await repo.list()).find((k) => k.fingerprint === record.fingerprint)?.agencyId).toBe(a);
  });

  it('revokes and replaces in one transaction: same rights and label, the old key refused at once, both actions logged', async () => {
    const { key, record } = await repo.create({ countries: ['fr', 'be'], domains: ['market'], sandbox: true, label: 'CRM', agencyId: a });
    expect(await repo.findActive(key)).not.toBeNull(); // now cached
    const done = await repo.replace(record.fingerprint, { agencyId: a, actor: actor() });
    expect(await repo.findActive(key)).toBeNull();
    expect(await repo.findActive(done.key)).toMatchObject({ countries: ['fr', 'be'], domains: ['market'], sandbox: true, label: 'CRM', agencyId: a });
    expect(done.key).toMatch(/^svc_test_/);
    expect(done.replaced.revokedAt).not.toBeNull();
    const actions = await agencyKeyActions(db.sql, a);
    expect(actions.slice(0, 2).map((x) => [x.action, x.fingerprint, x.replacement, x.actor])).toEqual([
      ['create', done.record.fingerprint, null, 'Alice Martin <alice@example.fr>'],
      ['replace', record.fingerprint, done.record.fingerprint, 'Alice Martin <alice@example.fr>'],
    ]);
    await expect(repo.replace(record.fingerprint, { agencyId: a, actor: actor() })).rejects.toBeInstanceOf(KeyRevokedError);
  });

  it('a replaced key is refused by another process within its key cache delay', async () => {
    let now = Date.parse('2026-11-20T10:00:00Z');
    const clock = { now: () => new Date(now) };
    // Two servers on one state store, each with its own cache of recognised keys.
    const here = cacheActiveKeys(createKeyRepository(db.sql), { clock, ttlMs: 10_000 });
    const there = cacheActiveKeys(createKeyRepository(db.sql), { clock, ttlMs: 10_000 });
    const { key, record } = await here.create({ countries: ['fr'], agencyId: a });
    expect(await there.findActive(key)).not.toBeNull();
    await here.replace(record.fingerprint, { agencyId: a, actor: actor() });
    expect(await here.findActive(key)).toBeNull();
    now += 9_000;
    expect(await there.findActive(key)).not.toBeNull();
    now += 1_001;
    expect(await there.findActive(key)).toBeNull();
  });

  it('of two replacements of one key at once, exactly one is made', async () => {
    const { record } = await repo.create({ countries: ['fr'], label: 'race', agencyId: a });
    const results = await Promise.allSettled([1, 2].map(() => repo.replace(record.fingerprint, { agencyId: a, actor: actor() })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(KeyRevokedError);
    expect((await repo.listForAgency(a)).filter((k) => k.label === 'race' && k.revokedAt === null)).toHaveLength(1);
  });

  it('never reaches another agency’s key, nor an operator’s', async () => {
    const theirs = await repo.create({ countries: ['fr'], agencyId: b });
    const operators = await repo.create({ countries: ['fr'] });
    for (const r of [theirs.record, operators.record]) {
      await expect(repo.replace(r.fingerprint, { agencyId: a, actor: actor() })).rejects.toBeInstanceOf(KeyNotFoundError);
      await expect(repo.revoke(r.fingerprint, { agencyId: a, actor: actor() })).rejects.toBeInstanceOf(KeyNotFoundError);
    }
    expect(await repo.findActive(theirs.key)).not.toBeNull();
    expect(await repo.findActive(operators.key)).not.toBeNull();
    const revoked = await repo.revoke(theirs.record.fingerprint, { agencyId: b, actor: { userId: null, name: 'someone of B' } });
    expect(revoked.alreadyRevoked).toBe(false);
    expect((await agencyKeyActions(db.sql, b))[0]).toMatchObject({ action: 'revoke', actor: 'someone of B' });
    expect(await agencyKeyActions(db.sql, b)).not.toContainEqual(expect.objectContaining({ fingerprint: operators.record.fingerprint }));
  });

  it('counts units per day with the period, through the usage meter', async () => {
    const { record } = await repo.create({ countries: ['fr'], agencyId: a });
    const fp = record.fingerprint;
    const meter = createUsageMeter({ keys: repo, flushIntervalMs: 60_000, onError: (err) => { throw err; } });
    await meter.add(fp, '2026-11-01', 3, '2026-11-19');
    await meter.add(fp, '2026-11-01', 4, '2026-11-20');
    await meter.add(fp, '2026-11-01', 1, '2026-11-20');
    expect(await meter.used(fp, '2026-11-01')).toBe(8);
    await meter.close();
    const days = await usageByDay(db.sql, [fp], '2026-10-22', '2026-11-20');
    expect([...days.get(fp)!.entries()].sort()).toEqual([['2026-11-19', 3], ['2026-11-20', 5]]);
    expect((await usageInPeriod(db.sql, [fp], '2026-11-01')).get(fp)).toBe(8);
    expect((await lastUsedDays(db.sql, [fp])).get(fp)).toBe('2026-11-20');
    // Written through (flush interval 0) as well.
    const through = createUsageMeter({ keys: repo, flushIntervalMs: 0, onError: () => {} });
    await through.add(fp, '2026-11-01', 2, '2026-11-20');
    expect((await usageByDay(db.sql, [fp], '2026-11-20', '2026-11-20')).get(fp)!.get('2026-11-20')).toBe(7);
    await expect(repo.addUsage(fp, '2026-11-01', 1, '2026-11-31')).rejects.toThrow(/invalid day/);
  });
});
