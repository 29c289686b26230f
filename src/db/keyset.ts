import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { BadRequest } from '../errors.ts';
import type { Signer } from '../secrets.ts';

export const DEFAULT_PAGE_SIZE = 50;

/** Where a page starts: the sort value and id of the last item of the previous page. */
export type CursorKey = [sort: string | number, id: string];

export interface PageRequest {
  page?: string;
  limit?: number;
}

export interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

/**
 * Cursors are opaque to callers: the key of the last item, signed together with the `scope` of the listing
 * (which list, which filters, which order). A cursor that was altered, forged or carried to another listing
 * is refused with 400 instead of giving a wrong page.
 */
export function encodeCursor(signer: Signer, scope: string, key: CursorKey): string {
  const payload = Buffer.from(JSON.stringify(key)).toString('base64url');
  return `${payload}.${signer.sign(`${scope}|${payload}`)}`;
}

export function decodeCursor(signer: Signer, scope: string, page: string): CursorKey {
  const invalid = new BadRequest(
    'The "page" cursor is not valid for this list: pass the "next.page" value of the previous answer unchanged, with the same filters, or leave "page" out to start again.',
  );
  const [payload, signature, extra] = page.split('.');
  if (!payload || !signature || extra !== undefined || !signer.verify(`${scope}|${payload}`, signature)) throw invalid;
  try {
    const key: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length === 2 && ['string', 'number'].includes(typeof key[0]) && typeof key[1] === 'string') {
      return key as CursorKey;
    }
  } catch {
    // falls through to the same answer as a bad signature
  }
  throw invalid;
}

/**
 * The keyset condition "after `cursor`" for a listing ordered by (sort, id) in `direction`. Both columns
 * are compared with the same direction so that ties on the sort value are broken by id: walking `next`
 * visits every item exactly once, even while items are added.
 */
export function after(sortColumn: string, idColumn: string, direction: 'asc' | 'desc', cursor: CursorKey): Expression<SqlBool> {
  const op = sql.raw(direction === 'asc' ? '>' : '<');
  const [sort, id] = cursor;
  return sql<SqlBool>`(${sql.ref(sortColumn)} ${op} ${sort} or (${sql.ref(sortColumn)} = ${sort} and ${sql.ref(idColumn)} ${op} ${id}))`;
}

export interface Listing<Row> {
  signer: Signer;
  /** Names the list and every filter and order that shape it. */
  scope: string;
  request: PageRequest;
  count: () => Promise<number>;
  /** Rows after `cursor` (or from the start), in order, at most `take`. */
  fetch: (cursor: CursorKey | undefined, take: number) => Promise<Row[]>;
  key: (row: Row) => CursorKey;
}

/** Runs a keyset-paginated listing: one query for the page (one row more, to know if there is a next), one for the count. */
export async function paginate<Row>(listing: Listing<Row>): Promise<Page<Row>> {
  const limit = listing.request.limit ?? DEFAULT_PAGE_SIZE;
  const cursor = listing.request.page ? decodeCursor(listing.signer, listing.scope, listing.request.page) : undefined;
  const [rows, count] = await Promise.all([limit === 0 ? Promise.resolve([]) : listing.fetch(cursor, limit + 1), listing.count()]);
  const items = rows.slice(0, limit);
  const page: Page<Row> = { items, count };
  if (rows.length > limit) page.next = { page: encodeCursor(listing.signer, listing.scope, listing.key(items[items.length - 1])) };
  return page;
}

export interface CreationOrder {
  /** Oldest first ('asc', the default) or newest first ('desc'). */
  direction?: 'asc' | 'desc';
  /** The table whose `created_at` and `id` order the rows, when the query joins others. */
  table?: string;
}

/**
 * A page of rows in creation order (`created_at`, then `id`), with the total count: the listing most of
 * Quire's lists are. `query` selects the rows (and is counted with its selection cleared).
 */
export async function pageInCreationOrder<DB, TB extends keyof DB, Row extends { created_at: string; id: string }>(
  signer: Signer,
  query: SelectQueryBuilder<DB, TB, Row>,
  scope: string,
  request: PageRequest,
  order: CreationOrder = {},
): Promise<Page<Row>> {
  const direction = order.direction ?? 'asc';
  const column = (name: string) => (order.table ? `${order.table}.${name}` : name);
  return paginate({
    signer,
    scope,
    request,
    count: async () => {
      const counted = await query.clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      return Number((counted as { n: number | string }).n);
    },
    fetch: (cursor, take) =>
      query
        .$if(cursor !== undefined, (q) => q.where(after(column('created_at'), column('id'), direction, cursor!)))
        .orderBy(sql.ref(column('created_at')), direction)
        .orderBy(sql.ref(column('id')), direction)
        .limit(take)
        .execute(),
    key: (row) => [row.created_at, row.id],
  });
}
