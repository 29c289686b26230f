import type { Context } from '../../context.ts';
import { BadRequest } from '../../errors.ts';
import type { ContentPointer, ContentPosition } from './schemas.ts';

/**
 * The order of content among siblings. Spaces and collections that share a parent (a collection, or the
 * root of an organization) are ordered together by `position`, a double: placing an item between two
 * neighbours writes only that item (the midpoint). When the midpoint cannot be told apart from a neighbour
 * (after many moves into the same gap, or two siblings at the same position), the siblings are renumbered
 * 1, 2, 3… first. Only live (not deleted) items count as siblings.
 */

export interface ContentItem {
  type: 'space' | 'collection';
  id: string;
}

interface Sibling extends ContentItem {
  position: number;
}

const same = (a: ContentItem, b: ContentItem) => a.type === b.type && a.id === b.id;

function pointed(pointer: ContentPointer): ContentItem {
  return pointer.type === 'space' ? { type: 'space', id: pointer.space } : { type: 'collection', id: pointer.collection };
}

/** The live children of `parentId` (null: the root of the organization), in order. */
export async function siblingsOf(ctx: Context, organizationId: string, parentId: string | null): Promise<Sibling[]> {
  const [spaces, collections] = await Promise.all([
    ctx.db
      .selectFrom('spaces')
      .select(['id', 'position'])
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .where('collection_id', parentId === null ? 'is' : '=', parentId)
      .execute(),
    ctx.db
      .selectFrom('collections')
      .select(['id', 'position'])
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .execute(),
  ]);
  const all: Sibling[] = [
    ...spaces.map((row) => ({ type: 'space' as const, id: row.id, position: Number(row.position) })),
    ...collections.map((row) => ({ type: 'collection' as const, id: row.id, position: Number(row.position) })),
  ];
  return all.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export interface Placement {
  position: number;
  /** The item was already a child of this parent, exactly there: the move would change nothing. */
  unchanged: boolean;
}

/**
 * Where `item` (null for a new item) goes among the children of `parentId`: before or after the sibling
 * that `position` names, or at the end. A pointer to something that is not a live child of that parent, or
 * to the item itself, is a 400 naming the field. Both `after` and `before` may be given when they name two
 * neighbours.
 */
export async function placeIn(
  ctx: Context,
  organizationId: string,
  parentId: string | null,
  item: ContentItem | null,
  position: ContentPosition | undefined,
): Promise<Placement> {
  const all = await siblingsOf(ctx, organizationId, parentId);
  const others = item ? all.filter((s) => !same(s, item)) : all;
  const find = (field: 'before' | 'after', pointer: ContentPointer): number => {
    const target = pointed(pointer);
    if (item && same(target, item)) {
      throw new BadRequest(`The body member "position.${field}" names the ${item.type} being placed itself; name one of its siblings.`);
    }
    const index = others.findIndex((s) => same(s, target));
    if (index < 0) {
      const where = parentId === null ? 'at the root of the organization' : `in collection "${parentId}"`;
      throw new BadRequest(`The body member "position.${field}" names ${target.type} "${target.id}", which is not ${where}, where the ${item?.type ?? 'item'} goes.`);
    }
    return index;
  };
  const after = position?.after ? find('after', position.after) : undefined;
  const before = position?.before ? find('before', position.before) : undefined;
  if (after !== undefined && before !== undefined && before !== after + 1) {
    throw new BadRequest('The body members "position.after" and "position.before" must name two neighbours; give only one of them.');
  }
  const index = before ?? (after !== undefined ? after + 1 : others.length);
  const unchanged = item !== null && all.findIndex((s) => same(s, item)) === index;
  return { position: await positionAt(ctx, others, index), unchanged };
}

/** A position that sorts between others[index - 1] and others[index]; renumbers `others` when there is no room. */
async function positionAt(ctx: Context, others: Sibling[], index: number): Promise<number> {
  const candidate = between(others[index - 1]?.position, others[index]?.position);
  if (candidate !== undefined) return candidate;
  await renumber(ctx, others);
  return index + 0.5;
}

function between(previous: number | undefined, next: number | undefined): number | undefined {
  if (previous === undefined && next === undefined) return 1;
  if (previous === undefined) return next! - 1;
  if (next === undefined) return previous + 1;
  const middle = previous + (next - previous) / 2;
  return middle > previous && middle < next ? middle : undefined;
}

/** Gives `siblings` the positions 1, 2, 3… in their current order. */
async function renumber(ctx: Context, siblings: Sibling[]): Promise<void> {
  for (const [i, sibling] of siblings.entries()) {
    const position = i + 1;
    sibling.position = position;
    if (sibling.type === 'space') await ctx.db.updateTable('spaces').set({ position }).where('id', '=', sibling.id).execute();
    else await ctx.db.updateTable('collections').set({ position }).where('id', '=', sibling.id).execute();
  }
}

/** The position at the end of the children of `parentId`. */
export async function endPosition(ctx: Context, organizationId: string, parentId: string | null): Promise<number> {
  return (await placeIn(ctx, organizationId, parentId, null, undefined)).position;
}
