import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../api/core/state/migrations.ts';
import { AccountError, createAccountRepository, type AccountRepository } from '../../../api/accounts/accounts.ts';
import { hashPassword, verifyPassword } from '../../../api/accounts/passwords.ts';
import { backends, type Isolated } from '../core/state/backends.ts';

describe('passwords', () => {
  it('hashes with a fresh salt and verifies only the right password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterz', a)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
  });
});

describe.each(backends)('account model on $name', (backend) => {
  let db: Isolated;
  let repo: AccountRepository;
  beforeAll(async () => {
    db = await backend.open();
    await migrate(db.sql);
    repo = createAccountRepository(db.sql);
  });
  afterAll(() => db.cleanup());

  it('creates a board, an agency in it and a user in the agency, with the affiliation', async () => {
    const board = await repo.createBoard({ slug: 'gmtl', name: 'Grand Montréal', default_language: 'fr-CA' });
    const agency = await repo.createAgency({ board_id: board.id, name: 'Immobilier Plateau', country: 'CA' });
    const user = await repo.createUser({
      agency_id: agency.id,
      email: 'Julie.Tremblay@example.ca',
      first_name: 'Julie',
      last_name: 'Tremblay',
      languages: ['fr', 'en'],
      password: 'un mot de passe long',
    });
    expect(user).toMatchObject({
      email: 'Julie.Tremblay@example.ca',
      languages: ['fr', 'en'],
      phone: null,
      agency: { id: agency.id, name: 'Immobilier Plateau', country: 'CA' },
      board: { id: board.id, slug: 'gmtl', default_language: 'fr-CA' },
    });
    expect(typeof user.id).toBe('number');
    expect(user.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(await repo.board('gmtl')).toEqual(board);
    expect(await repo.board(String(board.id))).toEqual(board);
    expect((await repo.userByEmail('julie.tremblay@EXAMPLE.ca'))?.id).toBe(user.id);
  });

  it('signs in by e-mail in any case, counts sign-ins, refuses a wrong password or a disabled user', async () => {
    const ok = await repo.verifyCredentials('julie.tremblay@example.ca', 'un mot de passe long');
    expect(ok?.sign_in_count).toBe(1);
    expect(await repo.verifyCredentials('julie.tremblay@example.ca', 'un mot de passe faux')).toBeNull();
    expect(await repo.verifyCredentials('nobody@example.ca', 'un mot de passe long')).toBeNull();
    await repo.setPassword(ok!.id, 'un autre mot de passe');
    expect(await repo.verifyCredentials('julie.tremblay@example.ca', 'un mot de passe long')).toBeNull();
    expect(await repo.verifyCredentials('julie.tremblay@example.ca', 'un autre mot de passe')).not.toBeNull();
    await repo.disableUser(ok!.id);
    expect(await repo.verifyCredentials('julie.tremblay@example.ca', 'un autre mot de passe')).toBeNull();
  });

  it('refuses invalid input, duplicates and dangling references with clear messages', async () => {
    const board = await repo.board('gmtl');
    await expect(repo.createBoard({ slug: 'Bad Slug', name: 'x', default_language: 'fr' })).rejects.toThrow(
      /invalid board: slug/,
    );
    await expect(repo.createBoard({ slug: 'gmtl', name: 'again', default_language: 'fr' })).rejects.toThrow(
      /board gmtl already exists/,
    );
    await expect(repo.createAgency({ board_id: board.id, name: 'X', country: 'fr' })).rejects.toThrow(
      /invalid agency: country/,
    );
    await expect(repo.createAgency({ board_id: 999_999, name: 'X', country: 'FR' })).rejects.toMatchObject({
      code: 'not_found',
    });
    const [agency] = await repo.listAgencies(board.id);
    await expect(
      repo.createUser({ agency_id: agency.id, email: 'JULIE.TREMBLAY@example.ca', first_name: 'J', last_name: 'T' }),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(
      repo.createUser({ agency_id: agency.id, email: 'not-an-email', first_name: 'J', last_name: 'T' }),
    ).rejects.toThrow(/invalid user: email/);
    await expect(
      repo.createUser({ agency_id: agency.id, email: 'a@b.ca', first_name: 'J', last_name: 'T', password: 'short' }),
    ).rejects.toThrow(/password: at least 10 characters/);
    await expect(repo.user(999_999)).rejects.toBeInstanceOf(AccountError);
  });
});
