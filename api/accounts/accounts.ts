/**
 * Repository of the shared account model (boards, agencies, users).
 * Inputs are validated with the zod schemas of schemas/accounts.ts; every
 * failure a caller can correct is an {@link AccountError} with a clear message.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  AgencyInput,
  BoardInput,
  UserInput,
  type Agency,
  type Board,
  type User,
  type UserWithAffiliation,
} from '../../schemas/accounts.ts';
import { OperatorError } from '../core/cli.ts';
import type { Sql } from '../core/state/sql.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/** An operator's mistake about an account (api/core/cli.ts OperatorError). */
export class AccountError extends OperatorError {}

function validate<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.join('.') || what;
  throw new AccountError(`invalid ${what}: ${field}: ${issue.message}`, 'invalid');
}

/** Turns unique and foreign-key violations into messages a person can act on. */
function explain(err: unknown, what: string): never {
  const code = (err as { code?: string }).code;
  const detail = (err as { detail?: string; constraint?: string }).constraint ?? '';
  if (code === '23505') throw new AccountError(`${what} already exists (${detail.replace(/_key$/, '')})`, 'conflict');
  if (code === '23503') throw new AccountError(`${what}: the referenced record does not exist`, 'not_found');
  throw err;
}

const BOARD_COLS = 'id::int AS id, slug, name, default_language, created_at';
const AGENCY_COLS = 'id::int AS id, board_id::int AS board_id, name, country, created_at';
const USER_COLS = `id::int AS id, uid, agency_id::int AS agency_id, email, first_name, last_name, username,
  languages, phone, image_url, sign_in_count, disabled_at, created_at, updated_at`;

export function createAccountRepository(sql: Sql) {
  async function one<T>(text: string, params: unknown[], what: string): Promise<T> {
    const rows = await sql.query<T>(text, params);
    if (rows.length === 0) throw new AccountError(`${what} not found`, 'not_found');
    return rows[0];
  }

  async function withAffiliation(user: User): Promise<UserWithAffiliation> {
    const agency = await one<Agency>(`SELECT ${AGENCY_COLS} FROM agencies WHERE id = $1`, [user.agency_id], 'agency');
    const board = await one<Board>(`SELECT ${BOARD_COLS} FROM boards WHERE id = $1`, [agency.board_id], 'board');
    return { ...user, agency, board };
  }

  return {
    async createBoard(input: z.input<typeof BoardInput>): Promise<Board> {
      const b = validate(BoardInput, input, 'board');
      return sql
        .query<Board>(
          `INSERT INTO boards (slug, name, default_language) VALUES ($1, $2, $3) RETURNING ${BOARD_COLS}`,
          [b.slug, b.name, b.default_language],
        )
        .then((r) => r[0], (e) => explain(e, `board ${b.slug}`));
    },

    /** A board by id (number or digits) or by slug. */
    async board(ref: number | string): Promise<Board> {
      const byId = typeof ref === 'number' || /^\d+$/.test(ref);
      return one<Board>(
        `SELECT ${BOARD_COLS} FROM boards WHERE ${byId ? 'id = $1::bigint' : 'slug = $1'}`,
        [String(ref)],
        `board ${ref}`,
      );
    },

    listBoards: () => sql.query<Board>(`SELECT ${BOARD_COLS} FROM boards ORDER BY id`),

    async createAgency(input: z.input<typeof AgencyInput>): Promise<Agency> {
      const a = validate(AgencyInput, input, 'agency');
      return sql
        .query<Agency>(
          `INSERT INTO agencies (board_id, name, country) VALUES ($1, $2, $3) RETURNING ${AGENCY_COLS}`,
          [a.board_id, a.name, a.country],
        )
        .then((r) => r[0], (e) => explain(e, `agency of board ${a.board_id}`));
    },

    agency: (id: number) => one<Agency>(`SELECT ${AGENCY_COLS} FROM agencies WHERE id = $1`, [id], `agency ${id}`),

    listAgencies: (boardId?: number) =>
      sql.query<Agency>(
        `SELECT ${AGENCY_COLS} FROM agencies WHERE $1::bigint IS NULL OR board_id = $1 ORDER BY id`,
        [boardId ?? null],
      ),

    async createUser(input: UserInput): Promise<UserWithAffiliation> {
      const u = validate(UserInput, input, 'user');
      const passwordHash = u.password === undefined ? null : await hashPassword(u.password);
      const user = await sql
        .query<User>(
          `INSERT INTO users (uid, agency_id, email, first_name, last_name, username, languages, phone, image_url, password_hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${USER_COLS}`,
          [
            u.uid ?? randomUUID(),
            u.agency_id,
            u.email,
            u.first_name,
            u.last_name,
            u.username ?? null,
            u.languages,
            u.phone,
            u.image_url,
            passwordHash,
          ],
        )
        .then((r) => r[0], (e) => explain(e, `user ${u.email}`));
      return withAffiliation(user);
    },

    async user(id: number): Promise<UserWithAffiliation> {
      return withAffiliation(await one<User>(`SELECT ${USER_COLS} FROM users WHERE id = $1`, [id], `user ${id}`));
    },

    async userByEmail(email: string): Promise<UserWithAffiliation | null> {
      const rows = await sql.query<User>(`SELECT ${USER_COLS} FROM users WHERE lower(email) = lower($1)`, [email]);
      return rows.length === 0 ? null : withAffiliation(rows[0]);
    },

    async userByUid(uid: string): Promise<UserWithAffiliation | null> {
      const rows = await sql.query<User>(`SELECT ${USER_COLS} FROM users WHERE uid = $1`, [uid]);
      return rows.length === 0 ? null : withAffiliation(rows[0]);
    },

    listUsers: (agencyId?: number) =>
      sql.query<User>(
        `SELECT ${USER_COLS} FROM users WHERE $1::bigint IS NULL OR agency_id = $1 ORDER BY id`,
        [agencyId ?? null],
      ),

    async setPassword(id: number, password: string): Promise<void> {
      const { password: p } = validate(UserInput.pick({ password: true }).required(), { password }, 'password');
      const rows = await sql.query(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1 RETURNING id`, [
        id,
        await hashPassword(p),
      ]);
      if (rows.length === 0) throw new AccountError(`user ${id} not found`, 'not_found');
    },

    /**
     * Checks an e-mail and password; counts the sign-in on success. Unknown
     * e-mail, wrong password and disabled user all answer null, in the same
     * time (a decoy hash is compared when the user is unknown).
     */
    async verifyCredentials(email: string, password: string): Promise<UserWithAffiliation | null> {
      const rows = await sql.query<User & { password_hash: string | null }>(
        `SELECT ${USER_COLS}, password_hash FROM users WHERE lower(email) = lower($1)`,
        [email],
      );
      const row = rows[0];
      const ok = await verifyPassword(password, row?.password_hash ?? null);
      if (!ok || !row || row.disabled_at !== null) return null;
      await sql.query(`UPDATE users SET sign_in_count = sign_in_count + 1 WHERE id = $1`, [row.id]);
      const { password_hash: _, ...user } = row;
      return withAffiliation({ ...user, sign_in_count: user.sign_in_count + 1 });
    },

    async disableUser(id: number): Promise<void> {
      const rows = await sql.query(`UPDATE users SET disabled_at = now(), updated_at = now() WHERE id = $1 RETURNING id`, [id]);
      if (rows.length === 0) throw new AccountError(`user ${id} not found`, 'not_found');
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
