/**
 * The orders Quire sorts by, written once. Text is compared by code unit (the same order as the databases'
 * binary collation and as ids are made), never by locale, so lists and keyset cursors agree.
 */

/** -1, 0 or 1 by code unit. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Items with a stored `position`, ties broken by id. */
export function byPosition<T extends { position: number | string; id: string }>(a: T, b: T): number {
  return Number(a.position) - Number(b.position) || compareText(a.id, b.id);
}
