/**
 * Opaque cursors of the list routes: the last id served, in ascending id order. Identical in
 * every version (spec section 4). A cursor that does not decode answers 400.
 */
import { badRequest } from '../errors.ts';

export function encodeCursor(lastId: number): string {
  return Buffer.from(`after:${lastId}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const m = /^after:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw badRequest(`invalid cursor ${JSON.stringify(cursor)}: pass the next_cursor of a previous page`);
  return Number(m[1]);
}

/** Rows fetched with limit + 1: the page and the cursor of the next one. */
export function page<T extends { id: number }>(rows: T[], limit: number): { items: T[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, next_cursor: rows.length > limit ? encodeCursor(items[items.length - 1].id) : null };
}

/** Maps a PostgreSQL constraint violation to a refused field, or rethrows. */
export function pgCode(err: unknown): string | undefined {
  return (err as { code?: string }).code;
}
