/**
 * The listing view of the shared agencies (api/accounts): created through the account
 * repository, with the listing's contact fields in listing_agency_profiles.
 */
import type { z } from 'zod';
import type { Agency, AgencyInput, AgencyListQuery, AgencyUpdate } from '../../../schemas/listing/agency.ts';
import { createAccountRepository } from '../../accounts/accounts.ts';
import type { Sql } from '../../core/state/sql.ts';
import { notFound, refused } from '../errors.ts';
import type { BoardScope } from './board.ts';
import { decodeCursor, page, pgCode } from './cursor.ts';
import { stripUndefined } from './properties.ts';

type Row = Omit<Agency, 'created_at' | 'phone' | 'email' | 'website' | 'license_number'> & { created_at: Date; data: Record<string, string | null> | null };
const SELECT = `SELECT a.id::int AS id, b.slug AS mls_board, a.name, a.country, a.created_at, p.data
  FROM agencies a JOIN boards b ON b.id = a.board_id LEFT JOIN listing_agency_profiles p ON p.agency_id = a.id`;
const present = (r: Row): Agency => ({
  id: r.id, mls_board: r.mls_board, name: r.name, country: r.country,
  phone: r.data?.phone ?? null, email: r.data?.email ?? null, website: r.data?.website ?? null, license_number: r.data?.license_number ?? null,
  created_at: new Date(r.created_at).toISOString(),
});
const profile = (a: AgencyInput) => JSON.stringify({ phone: a.phone, email: a.email, website: a.website, license_number: a.license_number });

export function createAgencyStore(sql: Sql) {
  async function get(board: BoardScope, id: number, db: Sql = sql): Promise<Agency> {
    const rows = await db.query<Row>(`${SELECT} WHERE a.id = $1 AND a.board_id = $2`, [id, board.id]);
    if (rows.length === 0) throw notFound(`agency ${id} not found in board ${board.slug}`);
    return present(rows[0]);
  }
  return {
    get,
    async list(board: BoardScope, q: z.output<typeof AgencyListQuery>) {
      const params: unknown[] = [board.id, decodeCursor(q.cursor), q.country ?? null, q.name ?? null, q.limit + 1];
      const rows = await sql.query<Row>(
        `${SELECT} WHERE a.board_id = $1 AND a.id > $2 AND ($3::text IS NULL OR a.country = $3)
           AND ($4::text IS NULL OR strpos(lower(a.name), lower($4)) > 0) ORDER BY a.id LIMIT $5`,
        params,
      );
      return page(rows.map(present), q.limit);
    },
    async create(board: BoardScope, input: AgencyInput): Promise<Agency> {
      return sql.transaction(async (tx) => {
        const agency = await createAccountRepository(tx).createAgency({ board_id: board.id, name: input.name, country: input.country });
        await tx.query(`INSERT INTO listing_agency_profiles (agency_id, data) VALUES ($1, $2::jsonb)`, [agency.id, profile(input)]);
        return get(board, agency.id, tx);
      });
    },
    async update(board: BoardScope, id: number, patch: AgencyUpdate): Promise<Agency> {
      return sql.transaction(async (tx) => {
        const current = await get(board, id, tx);
        const next = { ...current, ...stripUndefined(patch) } as AgencyInput;
        await tx.query(`UPDATE agencies SET name = $2, country = $3 WHERE id = $1`, [id, next.name, next.country]);
        await tx.query(
          `INSERT INTO listing_agency_profiles (agency_id, data) VALUES ($1, $2::jsonb) ON CONFLICT (agency_id) DO UPDATE SET data = EXCLUDED.data`,
          [id, profile(next)],
        );
        return get(board, id, tx);
      });
    },
    /** Refused while users or properties still belong to the agency (the shared row stays whole). */
    async remove(board: BoardScope, id: number): Promise<void> {
      await get(board, id);
      try {
        await sql.transaction(async (tx) => {
          await tx.query(`DELETE FROM agencies WHERE id = $1 AND board_id = $2`, [id, board.id]);
        });
      } catch (err) {
        if (pgCode(err) === '23503') throw refused([{ field: 'id', reason: 'the agency still has users or properties' }]);
        throw err;
      }
    },
  };
}
export type AgencyStore = ReturnType<typeof createAgencyStore>;
