import type { Context } from '../../context.ts';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type Page, type PageRequest } from '../../db/keyset.ts';

/**
 * A page of a list held in memory (a site's structure is small and read whole). The cursor is the index
 * and id of the last item given, signed with the list's scope; when that item has since gone, the next page
 * starts at the same index.
 */
export function pageOfList<T, R>(
  ctx: Pick<Context, 'cursors'>,
  scope: string,
  request: PageRequest,
  list: T[],
  idOf: (item: T) => string,
  present: (item: T) => R,
): Page<R> {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  let start = 0;
  if (request.page) {
    const [index, id] = decodeCursor(ctx.cursors, scope, request.page);
    const found = list.findIndex((item) => idOf(item) === id);
    start = found >= 0 ? found + 1 : Math.min(Number(index) + 1, list.length);
  }
  const items = list.slice(start, start + limit);
  const page: Page<R> = { items: items.map(present), count: list.length };
  if (limit > 0 && start + limit < list.length) page.next = { page: encodeCursor(ctx.cursors, scope, [start + limit - 1, idOf(items[items.length - 1]!)]) };
  return page;
}
