/** Gateways of a board (table listing_gateways, migration 005). */
import type { z } from 'zod';
import type { Gateway, GatewayInput, GatewayListQuery, GatewayUpdate } from '../../../schemas/listing/gateway.ts';
import type { Sql } from '../../core/state/sql.ts';
import { notFound, refused } from '../errors.ts';
import type { BoardScope } from './board.ts';
import { decodeCursor, page, pgCode } from './cursor.ts';
import { stripUndefined } from './properties.ts';

type Row = Omit<Gateway, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };
const SELECT = `SELECT g.id::int AS id, b.slug AS mls_board, g.code, g.name, g.kind, g.format, g.endpoint_url, g.active,
  (SELECT count(*)::int FROM listing_property_gateways pg WHERE pg.gateway_id = g.id) AS property_count, g.created_at, g.updated_at
  FROM listing_gateways g JOIN boards b ON b.id = g.board_id`;
const present = (r: Row): Gateway => ({ ...r, created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString() });

function duplicate(err: unknown): never {
  if (pgCode(err) === '23505') throw refused([{ field: 'code', reason: 'already used by another gateway of the board' }]);
  throw err;
}

export function createGatewayStore(sql: Sql) {
  async function get(board: BoardScope, id: number, db: Sql = sql): Promise<Gateway> {
    const rows = await db.query<Row>(`${SELECT} WHERE g.id = $1 AND g.board_id = $2`, [id, board.id]);
    if (rows.length === 0) throw notFound(`gateway ${id} not found in board ${board.slug}`);
    return present(rows[0]);
  }
  return {
    get,
    async list(board: BoardScope, q: z.output<typeof GatewayListQuery>) {
      const rows = await sql.query<Row>(
        `${SELECT} WHERE g.board_id = $1 AND g.id > $2 AND ($3::text IS NULL OR g.kind = $3) AND ($4::boolean IS NULL OR g.active = $4)
         ORDER BY g.id LIMIT $5`,
        [board.id, decodeCursor(q.cursor), q.kind ?? null, q.active ?? null, q.limit + 1],
      );
      return page(rows.map(present), q.limit);
    },
    async create(board: BoardScope, g: GatewayInput): Promise<Gateway> {
      return sql.transaction(async (tx) => {
        const [row] = await tx
          .query<{ id: number }>(
            `INSERT INTO listing_gateways (board_id, code, name, kind, format, endpoint_url, active) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::int AS id`,
            [board.id, g.code, g.name, g.kind, g.format, g.endpoint_url, g.active],
          )
          .catch(duplicate);
        return get(board, row.id, tx);
      });
    },
    async update(board: BoardScope, id: number, patch: GatewayUpdate): Promise<Gateway> {
      return sql.transaction(async (tx) => {
        const g = { ...(await get(board, id, tx)), ...stripUndefined(patch) };
        await tx
          .query(`UPDATE listing_gateways SET code = $2, name = $3, kind = $4, format = $5, endpoint_url = $6, active = $7, updated_at = now() WHERE id = $1`, [
            id, g.code, g.name, g.kind, g.format, g.endpoint_url, g.active,
          ])
          .catch(duplicate);
        return get(board, id, tx);
      });
    },
    async remove(board: BoardScope, id: number): Promise<void> {
      const rows = await sql.query(`DELETE FROM listing_gateways WHERE id = $1 AND board_id = $2 RETURNING id`, [id, board.id]);
      if (rows.length === 0) throw notFound(`gateway ${id} not found in board ${board.slug}`);
    },
  };
}
export type GatewayStore = ReturnType<typeof createGatewayStore>;
