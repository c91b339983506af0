/**
 * Properties of a board in PostgreSQL (table listing_properties, migration 005): filter columns
 * plus the write payload as jsonb. Every write runs in one transaction with its checks, so a
 * refused write changes nothing.
 */
import { PropertyInput, type PropertySearchQuery, type PropertyUpdate } from '../../../schemas/listing/property.ts';
import type { Sql } from '../../core/state/sql.ts';
import { notFound, refused, refusedByZod } from '../errors.ts';
import type { PropertyRecord } from '../present.ts';
import { convertArea } from '../format.ts';
import type { BoardScope } from './board.ts';
import { decodeCursor, page } from './cursor.ts';

/** Case, accents and spacing ignored when cities are compared. */
export const cityKey = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[\s'’-]+/g, ' ').trim();
const postalKey = (s: string) => s.replace(/\s+/g, '').toUpperCase();

type Row = { id: number; mls_board: string; data: PropertyRecord['input']; gateway_ids: number[] | null; created_at: Date; updated_at: Date };
const SELECT = `SELECT p.id::int AS id, b.slug AS mls_board, p.data, p.created_at, p.updated_at,
  (SELECT array_agg(g.gateway_id::int ORDER BY g.gateway_id) FROM listing_property_gateways g WHERE g.property_id = p.id) AS gateway_ids
  FROM listing_properties p JOIN boards b ON b.id = p.board_id`;
const record = (r: Row): PropertyRecord => ({
  id: r.id, mls_board: r.mls_board, input: r.data, gateway_ids: r.gateway_ids ?? [],
  created_at: new Date(r.created_at), updated_at: new Date(r.updated_at),
});

type Problem = { field: string; reason: string };

/** The rules checked at save, beyond the payload's shape. */
async function check(tx: Sql, board: BoardScope, p: PropertyInput): Promise<Problem[]> {
  const out: Problem[] = [];
  const listed = p.status !== 'draft';
  if (p.transaction_type === 'sale') {
    if (listed && p.price === null) out.push({ field: 'price', reason: 'required for a sale once listed' });
    if (p.rent !== null) out.push({ field: 'rent', reason: 'only for a rental' });
    if (p.status === 'rented') out.push({ field: 'status', reason: 'rented applies to a rental' });
  } else {
    if (listed && p.rent === null) out.push({ field: 'rent', reason: 'required for a rental once listed' });
    if (p.price !== null) out.push({ field: 'price', reason: 'only for a sale; use rent' });
    if (p.status === 'sold') out.push({ field: 'status', reason: 'sold applies to a sale' });
    if (p.life_lease !== null) out.push({ field: 'life_lease', reason: 'only for a sale' });
  }
  if (p.sold_price !== null && p.status !== 'sold') out.push({ field: 'sold_price', reason: 'only when status is sold' });
  if (p.agency_id !== null) {
    const a = await tx.query(`SELECT 1 FROM agencies WHERE id = $1 AND board_id = $2`, [p.agency_id, board.id]);
    if (a.length === 0) out.push({ field: 'agency_id', reason: `no agency ${p.agency_id} in board ${board.slug}` });
  }
  if (p.user_id !== null) {
    if (p.agency_id === null) out.push({ field: 'user_id', reason: 'needs agency_id' });
    else {
      const u = await tx.query(`SELECT 1 FROM users WHERE id = $1 AND agency_id = $2 AND disabled_at IS NULL`, [p.user_id, p.agency_id]);
      if (u.length === 0) out.push({ field: 'user_id', reason: `no user ${p.user_id} in agency ${p.agency_id}` });
    }
  }
  if (p.gateway_ids.length) {
    const g = await tx.query<{ id: number }>(`SELECT id::int AS id FROM listing_gateways WHERE id = ANY($1::bigint[]) AND board_id = $2`, [p.gateway_ids, board.id]);
    const missing = p.gateway_ids.filter((id) => !g.some((r) => r.id === id));
    if (missing.length) out.push({ field: 'gateway_ids', reason: `no gateway ${missing.join(', ')} in board ${board.slug}` });
  }
  return out;
}

function columns(p: PropertyInput) {
  const s = p.surface_areas;
  const { gateway_ids: _, ...data } = p;
  return [
    p.agency_id, p.user_id, p.status, p.transaction_type, p.property_type, p.price, p.rent, p.sold_price, p.currency,
    s.living_area === null ? null : convertArea(s.living_area, s.unit, 'square-meter'),
    p.bedrooms, p.bathrooms, cityKey(p.address.city), p.address.postal_code === null ? null : postalKey(p.address.postal_code),
    p.amenities, JSON.stringify(data),
  ];
}

async function setGateways(tx: Sql, id: number, ids: number[]): Promise<void> {
  await tx.query(`DELETE FROM listing_property_gateways WHERE property_id = $1`, [id]);
  for (const g of [...new Set(ids)]) await tx.query(`INSERT INTO listing_property_gateways (property_id, gateway_id) VALUES ($1, $2)`, [id, g]);
}

export function createPropertyStore(sql: Sql) {
  async function get(board: BoardScope, id: number, db: Sql = sql): Promise<PropertyRecord> {
    const rows = await db.query<Row>(`${SELECT} WHERE p.id = $1 AND p.board_id = $2`, [id, board.id]);
    if (rows.length === 0) throw notFound(`property ${id} not found in board ${board.slug}`);
    return record(rows[0]);
  }

  return {
    get,

    async search(board: BoardScope, q: PropertySearchQuery): Promise<{ items: PropertyRecord[]; next_cursor: string | null }> {
      const where = ['p.board_id = $1', 'p.id > $2'];
      const params: unknown[] = [board.id, decodeCursor(q.cursor)];
      const add = (clause: (n: string) => string, value: unknown) => { params.push(value); where.push(clause(`$${params.length}`)); };
      if (q.status) add((n) => `p.status = ANY(${n}::text[])`, q.status);
      if (q.property_type) add((n) => `p.property_type = ANY(${n}::text[])`, q.property_type);
      if (q.transaction_type) add((n) => `p.transaction_type = ${n}`, q.transaction_type);
      if (q.agency_id) add((n) => `p.agency_id = ${n}`, q.agency_id);
      if (q.user_id) add((n) => `p.user_id = ${n}`, q.user_id);
      if (q.city) add((n) => `p.city_key = ${n}`, cityKey(q.city));
      if (q.postal_code) add((n) => `left(p.postal_key, length(${n})) = ${n}`, postalKey(q.postal_code));
      if (q.min_price !== undefined) add((n) => `p.price >= ${n}`, q.min_price);
      if (q.max_price !== undefined) add((n) => `p.price <= ${n}`, q.max_price);
      if (q.min_rent !== undefined) add((n) => `p.rent >= ${n}`, q.min_rent);
      if (q.max_rent !== undefined) add((n) => `p.rent <= ${n}`, q.max_rent);
      if (q.min_bedrooms !== undefined) add((n) => `p.bedrooms >= ${n}`, q.min_bedrooms);
      if (q.max_bedrooms !== undefined) add((n) => `p.bedrooms <= ${n}`, q.max_bedrooms);
      if (q.min_bathrooms !== undefined) add((n) => `p.bathrooms >= ${n}`, q.min_bathrooms);
      if (q.min_area !== undefined) add((n) => `p.living_area_m2 >= ${n}`, q.min_area);
      if (q.max_area !== undefined) add((n) => `p.living_area_m2 <= ${n}`, q.max_area);
      if (q.amenities) add((n) => `p.amenities @> ${n}::text[]`, q.amenities);
      if (q.updated_since) add((n) => `p.updated_at >= ${n}::timestamptz`, q.updated_since);
      params.push(q.limit + 1);
      const rows = await sql.query<Row>(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY p.id LIMIT $${params.length}`, params);
      return page(rows.map(record), q.limit);
    },

    async create(board: BoardScope, input: PropertyInput): Promise<PropertyRecord> {
      return sql.transaction(async (tx) => {
        const problems = await check(tx, board, input);
        if (problems.length) throw refused(problems);
        const [row] = await tx.query<{ id: number }>(
          `INSERT INTO listing_properties (board_id, agency_id, user_id, status, transaction_type, property_type, price, rent, sold_price,
             currency, living_area_m2, bedrooms, bathrooms, city_key, postal_key, amenities, data)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::jsonb) RETURNING id::int AS id`,
          [board.id, ...columns(input)],
        );
        await setGateways(tx, row.id, input.gateway_ids);
        return get(board, row.id, tx);
      });
    },

    /** Top-level fields given replace the stored ones; the result is checked as a whole. */
    async update(board: BoardScope, id: number, patch: PropertyUpdate): Promise<PropertyRecord> {
      return sql.transaction(async (tx) => {
        const current = await get(board, id, tx);
        const merged = PropertyInput.safeParse({ ...current.input, gateway_ids: current.gateway_ids, ...stripUndefined(patch) });
        if (!merged.success) throw refusedByZod(merged.error);
        const problems = await check(tx, board, merged.data);
        if (problems.length) throw refused(problems);
        await tx.query(
          `UPDATE listing_properties SET agency_id = $2, user_id = $3, status = $4, transaction_type = $5, property_type = $6, price = $7,
             rent = $8, sold_price = $9, currency = $10, living_area_m2 = $11, bedrooms = $12, bathrooms = $13, city_key = $14,
             postal_key = $15, amenities = $16, data = $17::jsonb, updated_at = now()
           WHERE id = $1`,
          [id, ...columns(merged.data)],
        );
        await setGateways(tx, id, merged.data.gateway_ids);
        return get(board, id, tx);
      });
    },

    async remove(board: BoardScope, id: number): Promise<void> {
      const rows = await sql.query(`DELETE FROM listing_properties WHERE id = $1 AND board_id = $2 RETURNING id`, [id, board.id]);
      if (rows.length === 0) throw notFound(`property ${id} not found in board ${board.slug}`);
    },
  };
}

export const stripUndefined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export type PropertyStore = ReturnType<typeof createPropertyStore>;
