/**
 * The listing view of the shared users (api/accounts): created through the account
 * repository, with the listing's own fields in listing_user_profiles. A user belongs to a
 * board through its agency. Deleting disables the shared user (sign-in and marketplace keep
 * their references); a disabled user is no longer served by the listing API.
 */
import type { z } from 'zod';
import type { User, UserInput, UserListQuery, UserUpdate } from '../../../schemas/listing/user.ts';
import { AccountError, createAccountRepository } from '../../accounts/accounts.ts';
import type { Sql } from '../../core/state/sql.ts';
import { notFound, refused } from '../errors.ts';
import type { BoardScope } from './board.ts';
import { decodeCursor, page, pgCode } from './cursor.ts';
import { stripUndefined } from './properties.ts';

type Row = Omit<User, 'created_at' | 'updated_at' | 'title' | 'license_number'> & { created_at: Date; updated_at: Date; data: Record<string, string | null> | null };
const SELECT = `SELECT u.id::int AS id, u.uid, b.slug AS mls_board, u.agency_id::int AS agency_id, u.email, u.first_name, u.last_name,
  u.username, u.languages, u.phone, u.image_url, u.created_at, u.updated_at, p.data
  FROM users u JOIN agencies a ON a.id = u.agency_id JOIN boards b ON b.id = a.board_id
  LEFT JOIN listing_user_profiles p ON p.user_id = u.id`;
const present = (r: Row): User => ({
  id: r.id, uid: r.uid, mls_board: r.mls_board, agency_id: r.agency_id, email: r.email, first_name: r.first_name,
  last_name: r.last_name, username: r.username, languages: r.languages, phone: r.phone, image_url: r.image_url,
  title: r.data?.title ?? null, license_number: r.data?.license_number ?? null,
  created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString(),
});
const profile = (u: { title: string | null; license_number: string | null }) => JSON.stringify({ title: u.title, license_number: u.license_number });

async function agencyInBoard(tx: Sql, board: BoardScope, agencyId: number): Promise<void> {
  const rows = await tx.query(`SELECT 1 FROM agencies WHERE id = $1 AND board_id = $2`, [agencyId, board.id]);
  if (rows.length === 0) throw refused([{ field: 'agency_id', reason: `no agency ${agencyId} in board ${board.slug}` }]);
}

/** A duplicate e-mail or username is a refusal of the data sent. */
function duplicate(err: unknown): never {
  if (pgCode(err) === '23505' || (err instanceof AccountError && err.code === 'conflict')) {
    const text = `${(err as { constraint?: string }).constraint ?? ''} ${(err as Error).message}`;
    throw refused([{ field: /username/.test(text) ? 'username' : 'email', reason: 'already used by another user' }]);
  }
  throw err;
}

export function createUserStore(sql: Sql) {
  async function get(board: BoardScope, id: number, db: Sql = sql): Promise<User> {
    const rows = await db.query<Row>(`${SELECT} WHERE u.id = $1 AND a.board_id = $2 AND u.disabled_at IS NULL`, [id, board.id]);
    if (rows.length === 0) throw notFound(`user ${id} not found in board ${board.slug}`);
    return present(rows[0]);
  }
  return {
    get,
    async list(board: BoardScope, q: z.output<typeof UserListQuery>) {
      const rows = await sql.query<Row>(
        `${SELECT} WHERE a.board_id = $1 AND u.id > $2 AND u.disabled_at IS NULL AND ($3::bigint IS NULL OR u.agency_id = $3)
           AND ($4::text IS NULL OR lower(u.email) = lower($4)) ORDER BY u.id LIMIT $5`,
        [board.id, decodeCursor(q.cursor), q.agency_id ?? null, q.email ?? null, q.limit + 1],
      );
      return page(rows.map(present), q.limit);
    },
    async create(board: BoardScope, input: UserInput): Promise<User> {
      return sql.transaction(async (tx) => {
        await agencyInBoard(tx, board, input.agency_id);
        const user = await createAccountRepository(tx)
          .createUser({
            agency_id: input.agency_id, email: input.email, first_name: input.first_name, last_name: input.last_name,
            username: input.username ?? undefined, languages: input.languages, phone: input.phone, image_url: input.image_url,
          })
          .catch(duplicate);
        await tx.query(`INSERT INTO listing_user_profiles (user_id, data) VALUES ($1, $2::jsonb)`, [user.id, profile(input)]);
        return get(board, user.id, tx);
      });
    },
    async update(board: BoardScope, id: number, patch: UserUpdate): Promise<User> {
      return sql.transaction(async (tx) => {
        const current = await get(board, id, tx);
        const next = { ...current, ...stripUndefined(patch) };
        if (patch.agency_id !== undefined) await agencyInBoard(tx, board, patch.agency_id);
        await tx
          .query(
            `UPDATE users SET agency_id = $2, email = $3, first_name = $4, last_name = $5, username = $6, languages = $7,
               phone = $8, image_url = $9, updated_at = now() WHERE id = $1`,
            [id, next.agency_id, next.email, next.first_name, next.last_name, next.username, next.languages, next.phone, next.image_url],
          )
          .catch(duplicate);
        await tx.query(
          `INSERT INTO listing_user_profiles (user_id, data) VALUES ($1, $2::jsonb) ON CONFLICT (user_id) DO UPDATE SET data = EXCLUDED.data`,
          [id, profile(next)],
        );
        return get(board, id, tx);
      });
    },
    async remove(board: BoardScope, id: number): Promise<void> {
      await get(board, id);
      await createAccountRepository(sql).disableUser(id);
    },
  };
}
export type UserStore = ReturnType<typeof createUserStore>;
