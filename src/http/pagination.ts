import type { Page } from '../db/keyset.ts';

/** Applies a presenter to the items of a page (the routes' side of a listing). */
export function mapPage<A, B>(page: Page<A>, present: (item: A) => B): Page<B> {
  return { ...page, items: page.items.map(present) };
}
