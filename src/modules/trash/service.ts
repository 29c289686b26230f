import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { removeGrantsOn } from '../../access/grants.ts';
import { lockRows } from '../../db/locks.ts';
import { BadRequest, Conflict, Gone, NotFound } from '../../errors.ts';
import { cancelPending } from '../../jobs/queue.ts';
import { authorize } from '../../policy/index.ts';
import { endPosition } from '../spaces/positions.ts';
import { removeSpaces, subtree } from '../spaces/purge.ts';
import { purgeSpaceKey } from '../spaces/purge-space-job.ts';
import { retentionEnd, TRASH_RETENTION_DAYS, TRASH_RETENTION_MS } from '../spaces/retention.ts';

/**
 * The organization's trash as one list (administrators of the organization): what was deleted, each item
 * once (a collection stands for what was deleted with it), until its 7 days end; a collection's restore
 * (a space's is POST /v1/spaces/{spaceId}/restore); and "delete now", which purges an item before its time.
 */
export interface TrashItem {
  kind: 'space' | 'collection';
  id: string;
  title: string;
  emoji: string | null;
  deletedAt: string;
  /** Spaces deleted with a collection (0 for a space). */
  spaces: number;
}

async function manage(ctx: Context, organizationId: string) {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'trash.manage', actor);
  return organization;
}

/** Items still restorable, newest deletion first. A space or collection deleted with its collection is not listed apart. */
export async function listTrash(ctx: Context, organizationId: string): Promise<TrashItem[]> {
  const organization = await manage(ctx, organizationId);
  const cutoff = new Date(ctx.clock.now().getTime() - TRASH_RETENTION_MS).toISOString();
  const collections = await ctx.db
    .selectFrom('collections as c')
    .leftJoin('collections as p', 'p.id', 'c.parent_id')
    .select(['c.id', 'c.title', 'c.deleted_at'])
    .select((eb) => eb.selectFrom('spaces').select((s) => s.fn.countAll<string>().as('n')).whereRef('spaces.collection_id', '=', 'c.id').whereRef('spaces.deleted_at', '=', 'c.deleted_at').as('spaces'))
    .where('c.organization_id', '=', organization.id)
    .where('c.deleted_at', 'is not', null)
    .where('c.deleted_at', '>', cutoff)
    .where((eb) => eb.or([eb('p.id', 'is', null), eb('p.deleted_at', 'is', null), eb('p.deleted_at', '!=', eb.ref('c.deleted_at'))]))
    .execute();
  const spaces = await ctx.db
    .selectFrom('spaces as s')
    .leftJoin('collections as p', 'p.id', 's.collection_id')
    .select(['s.id', 's.title', 's.emoji', 's.deleted_at'])
    .where('s.organization_id', '=', organization.id)
    .where('s.deleted_at', 'is not', null)
    .where('s.deleted_at', '>', cutoff)
    .where((eb) => eb.or([eb('p.id', 'is', null), eb('p.deleted_at', 'is', null), eb('p.deleted_at', '!=', eb.ref('s.deleted_at'))]))
    .execute();
  const items: TrashItem[] = [
    ...collections.map((row) => ({ kind: 'collection' as const, id: row.id, title: row.title, emoji: null, deletedAt: row.deleted_at!, spaces: Number(row.spaces ?? 0) })),
    ...spaces.map((row) => ({ kind: 'space' as const, id: row.id, title: row.title, emoji: row.emoji, deletedAt: row.deleted_at!, spaces: 0 })),
  ];
  return items.sort((a, b) => (a.deletedAt === b.deletedAt ? a.id.localeCompare(b.id) : b.deletedAt.localeCompare(a.deletedAt)));
}

async function deletedCollection(tx: Context, organizationId: string, collectionId: string) {
  const read = tx.db.selectFrom('collections').selectAll().where('id', '=', collectionId).where('organization_id', '=', organizationId);
  const collection = await lockRows(read, tx.dialect).executeTakeFirst();
  if (!collection) throw new NotFound(`The organization has no collection "${collectionId}" in its trash. Deleted collections stay there for ${TRASH_RETENTION_DAYS} days.`);
  if (!collection.deleted_at) throw new Conflict(`Collection "${collectionId}" is not in the trash: there is nothing to restore or delete.`);
  return collection as typeof collection & { deleted_at: string };
}

/**
 * Takes a collection out of the trash within its 7 days, with the collections and spaces deleted with it
 * (one deleted before it stays in the trash). Under a parent that is itself in the trash it comes back at the
 * root of the organization. Its pending purges are dropped.
 */
export async function restoreCollection(ctx: Context, organizationId: string, collectionId: string): Promise<{ id: string; title: string }> {
  return inTransaction(ctx, async (tx) => {
    const organization = await manage(tx, organizationId);
    const collection = await deletedCollection(tx, organization.id, collectionId);
    const end = retentionEnd(collection.deleted_at);
    if (end <= tx.clock.now()) {
      throw new Gone(`Collection "${collection.id}" was deleted on ${collection.deleted_at}; it could be restored until ${end.toISOString()}, and can no longer be.`);
    }
    const ids = (await subtree(tx, collection.id)).filter((row) => row.deleted_at === collection.deleted_at).map((row) => row.id);
    const spaces = await tx.db.selectFrom('spaces').select('id').where('collection_id', 'in', ids).where('deleted_at', '=', collection.deleted_at).execute();
    const now = nowIso(tx);
    await tx.db.updateTable('collections').set({ deleted_at: null, updated_at: now }).where('id', 'in', ids).execute();
    if (spaces.length > 0) await tx.db.updateTable('spaces').set({ deleted_at: null, updated_at: now }).where('id', 'in', spaces.map((space) => space.id)).execute();
    if (collection.parent_id) {
      const parent = await tx.db.selectFrom('collections').select('deleted_at').where('id', '=', collection.parent_id).executeTakeFirst();
      if (!parent || parent.deleted_at) {
        const position = await endPosition(tx, organization.id, null);
        await tx.db.updateTable('collections').set({ parent_id: null, position }).where('id', '=', collection.id).execute();
      }
    }
    for (const space of spaces) await cancelPending(tx, purgeSpaceKey(space.id));
    await cancelPending(tx, `purge-collection:${collection.id}`);
    return { id: collection.id, title: collection.title };
  });
}

/** Removes an item of the trash for good before its 7 days end (a collection with everything deleted with it). */
export async function deleteNow(ctx: Context, organizationId: string, kind: string, id: string): Promise<void> {
  if (kind !== 'space' && kind !== 'collection') throw new BadRequest('The path names "spaces" or "collections" of the trash.');
  await inTransaction(ctx, async (tx) => {
    const organization = await manage(tx, organizationId);
    if (kind === 'space') {
      const read = tx.db.selectFrom('spaces').select(['id', 'deleted_at']).where('id', '=', id).where('organization_id', '=', organization.id);
      const space = await lockRows(read, tx.dialect).executeTakeFirst();
      if (!space) throw new NotFound(`The organization has no space "${id}" in its trash.`);
      if (!space.deleted_at) throw new Conflict(`Space "${id}" is not in the trash: delete it first (DELETE /v1/spaces/${id}).`);
      await removeSpaces(tx, [space.id]);
      await cancelPending(tx, purgeSpaceKey(space.id));
      return;
    }
    const collection = await deletedCollection(tx, organization.id, id);
    const tree = await subtree(tx, collection.id);
    const live = tree.filter((row) => !row.deleted_at);
    const ids = tree.map((row) => row.id);
    const spaces = await tx.db.selectFrom('spaces').select(['id', 'deleted_at']).where('collection_id', 'in', ids).execute();
    const liveSpaces = spaces.filter((space) => !space.deleted_at);
    if (live.length > 0 || liveSpaces.length > 0) {
      throw new Conflict(`Collection "${id}" holds content that is not in the trash (${[...live, ...liveSpaces].map((item) => `"${item.id}"`).join(', ')}): move it out first.`);
    }
    await removeSpaces(tx, spaces.map((space) => space.id));
    for (const space of spaces) await cancelPending(tx, purgeSpaceKey(space.id));
    await removeGrantsOn(tx, 'collection', ids);
    await tx.db.deleteFrom('collections').where('id', 'in', ids).execute();
    await cancelPending(tx, `purge-collection:${collection.id}`);
  });
}
