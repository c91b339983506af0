/**
 * Listing API credentials: apiKey/apiToken pairs (spec section 5) with rights per board.
 * Both are random; only their SHA-256 hashes are stored, the pair is shown once at creation.
 * The token is compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { OperatorError } from '../core/cli.ts';
import type { Sql } from '../core/state/sql.ts';

export interface BoardRef { id: number; slug: string }

export interface Credential {
  id: number;
  key_hint: string;
  label: string | null;
  boards: BoardRef[];
  created_at: Date;
  disabled_at: Date | null;
}

/** An operator's mistake about listing credentials (api/core/cli.ts OperatorError). */
export class CredentialError extends OperatorError {}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function random62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue; // 248 = 4 x 62: uniform
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const KEY = /^lk_[0-9A-Za-z]{24}$/;
const TOKEN = /^lt_[0-9A-Za-z]{40}$/;

/** Why a pair is refused; 3.2 answers only "Not Authorized", 3.0 and 3.1 this reason. */
export type AuthResult = { ok: true; credential: Credential } | { ok: false; reason: string };

export function createCredentialRepository(sql: Sql) {
  async function boardsOf(ids: number[]): Promise<Map<number, BoardRef[]>> {
    const rows = await sql.query<{ credential_id: number; id: number; slug: string }>(
      `SELECT cb.credential_id::int AS credential_id, b.id::int AS id, b.slug
         FROM listing_credential_boards cb JOIN boards b ON b.id = cb.board_id
        WHERE cb.credential_id = ANY($1::bigint[]) ORDER BY b.slug`,
      [ids],
    );
    const out = new Map<number, BoardRef[]>();
    for (const r of rows) out.set(r.credential_id, [...(out.get(r.credential_id) ?? []), { id: r.id, slug: r.slug }]);
    return out;
  }

  async function resolveBoards(tx: Sql, slugs: string[]): Promise<number[]> {
    if (slugs.length === 0) throw new CredentialError('at least one board is needed', 'invalid');
    const rows = await tx.query<{ id: number; slug: string }>(`SELECT id::int AS id, slug FROM boards WHERE slug = ANY($1::text[])`, [slugs]);
    const missing = slugs.filter((s) => !rows.some((r) => r.slug === s));
    if (missing.length) throw new CredentialError(`unknown board(s): ${missing.join(', ')}`, 'not_found');
    return rows.map((r) => r.id);
  }

  const COLS = `id::int AS id, key_hint, label, created_at, disabled_at`;
  type Row = Omit<Credential, 'boards'>;

  async function withBoards(rows: Row[]): Promise<Credential[]> {
    const boards = await boardsOf(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, boards: boards.get(r.id) ?? [] }));
  }

  async function find(ref: string): Promise<Row> {
    const byId = /^\d+$/.test(ref);
    const rows = await sql.query<Row>(
      `SELECT ${COLS} FROM listing_credentials WHERE ${byId ? 'id = $1::bigint' : 'key_hint = $1'}`,
      [ref],
    );
    if (rows.length === 0) throw new CredentialError(`credentials ${ref} not found (give the id or the apiKey hint)`, 'not_found');
    if (rows.length > 1) throw new CredentialError(`several credentials have the hint ${ref}: give the id (${rows.map((r) => r.id).join(', ')})`, 'invalid');
    return rows[0];
  }

  return {
    /** Creates a pair for the boards (slugs); the only time the apiKey and apiToken are seen. */
    async create(input: { boards: string[]; label?: string }): Promise<{ credential: Credential; apiKey: string; apiToken: string }> {
      const apiKey = `lk_${random62(24)}`;
      const apiToken = `lt_${random62(40)}`;
      const id = await sql.transaction(async (tx) => {
        const boardIds = await resolveBoards(tx, [...new Set(input.boards)]);
        const [row] = await tx.query<{ id: number }>(
          `INSERT INTO listing_credentials (key_hash, key_hint, token_hash, label) VALUES ($1, $2, $3, $4) RETURNING id::int AS id`,
          [sha256(apiKey), apiKey.slice(0, 9), sha256(apiToken), input.label ?? null],
        );
        for (const b of boardIds) await tx.query(`INSERT INTO listing_credential_boards (credential_id, board_id) VALUES ($1, $2)`, [row.id, b]);
        return row.id;
      });
      return { credential: await this.get(String(id)), apiKey, apiToken };
    },

    async get(ref: string): Promise<Credential> {
      return (await withBoards([await find(ref)]))[0];
    },

    async list(): Promise<Credential[]> {
      return withBoards(await sql.query<Row>(`SELECT ${COLS} FROM listing_credentials ORDER BY id`));
    },

    /** Replaces the boards a pair has rights on. */
    async setBoards(ref: string, slugs: string[]): Promise<Credential> {
      const row = await find(ref);
      await sql.transaction(async (tx) => {
        const boardIds = await resolveBoards(tx, [...new Set(slugs)]);
        await tx.query(`DELETE FROM listing_credential_boards WHERE credential_id = $1`, [row.id]);
        for (const b of boardIds) await tx.query(`INSERT INTO listing_credential_boards (credential_id, board_id) VALUES ($1, $2)`, [row.id, b]);
      });
      return this.get(String(row.id));
    },

    async setDisabled(ref: string, disabled: boolean): Promise<Credential> {
      const row = await find(ref);
      await sql.query(`UPDATE listing_credentials SET disabled_at = ${disabled ? 'coalesce(disabled_at, now())' : 'NULL'} WHERE id = $1`, [row.id]);
      return this.get(String(row.id));
    },

    /** Checks the pair of a request's headers. */
    async authenticate(apiKey: string | undefined, apiToken: string | undefined): Promise<AuthResult> {
      if (!apiKey || !apiToken) return { ok: false, reason: 'apiKey and apiToken headers are required' };
      if (!KEY.test(apiKey) || !TOKEN.test(apiToken)) return { ok: false, reason: 'invalid apiKey or apiToken' };
      const rows = await sql.query<Row & { token_hash: string }>(`SELECT ${COLS}, token_hash FROM listing_credentials WHERE key_hash = $1`, [sha256(apiKey)]);
      const row = rows[0];
      const given = Buffer.from(sha256(apiToken), 'hex');
      const stored = Buffer.from(row?.token_hash ?? '0'.repeat(64), 'hex');
      if (!timingSafeEqual(given, stored) || !row) return { ok: false, reason: 'invalid apiKey or apiToken' };
      if (row.disabled_at) return { ok: false, reason: 'API access is disabled for these credentials' };
      const { token_hash: _, ...rest } = row;
      return { ok: true, credential: (await withBoards([rest]))[0] };
    },
  };
}

export type CredentialRepository = ReturnType<typeof createCredentialRepository>;
