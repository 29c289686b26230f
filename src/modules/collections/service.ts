import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import type { CollectionsTable } from '../../db/tables/content.ts';
import { after, paginate, type Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { effectiveLevel, type StoredLevel } from '../../policy/space.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { collectionChain, collectionLevelChain } from '../../access/spaces.ts';
import { greaterRank, grantedRole, loadGrants, memberGrants, raisedLevel, rankOfIds, roleOfRank } from '../../access/grants.ts';
import { roleRank } from '../../policy/roles.ts';
import { accessibleBy, collectionGrantRank, orGranted, spaceActorFor, spaceViewableBy, withContentLevels } from '../../access/levels.ts';
import { endPosition } from '../spaces/positions.ts';
import type { SpaceView } from '../spaces/views.ts';
import { storedLevel } from '../spaces/service.ts';
import { collectionAccess, parentCollection, type CollectionRow } from '../../access/collections.ts';
import type { CollectionView } from './views.ts';
import type { CreateCollectionBody, ListCollectionSpacesQuery, ListCollectionsQuery, UpdateCollectionBody } from './schemas.ts';
import { checkDepth } from './tree.ts';

export const DEFAULT_COLLECTION_TITLE = 'Untitled';

/** The first level set on a chain (nearest first), or 'inherit' when none is. */
function resolve(chain: StoredLevel[]): StoredLevel {
  return chain.find((level) => level !== 'inherit') ?? 'inherit';
}

/** Creates a collection at the end of the root of the organization, or of the collection `parent`. */
export async function createCollection(ctx: Context, organizationId: string, input: CreateCollectionBody): Promise<CollectionView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'collections.create', actor);
    let parentId: string | null = null;
    if (input.parent !== undefined) {
      const parent = await parentCollection(tx, organization.id, input.parent);
      authorize(tx, 'collection.create', parent.actor);
      parentId = parent.collection.id;
      await checkDepth(tx, parentId, 1);
    }
    const now = nowIso(tx);
    const collection: CollectionsTable = {
      id: tx.ids.next(),
      organization_id: organization.id,
      parent_id: parentId,
      title: input.title ?? DEFAULT_COLLECTION_TITLE,
      description: null,
      default_level: 'inherit',
      position: await endPosition(tx, organization.id, parentId),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await tx.db.insertInto('collections').values(collection).execute();
    const level = effectiveLevel(actor.role, ['inherit', ...(await collectionLevelChain(tx, parentId))]);
    return { collection, actor: { userId: actor.userId, orgRole: actor.role, level } };
  });
}

/**
 * The collections of an organization that the caller can see, oldest first: all of them (`nested`, the
 * default), or only those at the root.
 */
export async function listCollections(ctx: Context, organizationId: string, query: ListCollectionsQuery): Promise<Page<CollectionView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'collections.list', actor);
  const nested = query.nested ?? true;
  const resolved = sql<string>`collection_levels.level`;
  const grants = await loadGrants(ctx, organization.id, actor.userId);
  const granted = collectionGrantRank(grants);
  const base = withContentLevels(ctx.db, organization.id, grants)
    .selectFrom('collections')
    .innerJoin('collection_levels', 'collection_levels.id', 'collections.id')
    .where('collections.organization_id', '=', organization.id)
    .where('collections.deleted_at', 'is', null)
    .where(orGranted(accessibleBy(actor.role, resolved), granted))
    .$if(!nested, (q) => q.where('collections.parent_id', 'is', null));
  const page = await paginate({
    signer: ctx.cursors,
    scope: `collections:${organization.id}:${actor.userId}:${nested}`,
    request: query,
    count: async () => Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    fetch: (cursor, take) =>
      base
        .selectAll('collections')
        .select(resolved.as('resolved_level'))
        .select(granted.as('granted_rank'))
        .$if(cursor !== undefined, (q) => q.where(after('collections.created_at', 'collections.id', 'asc', cursor!)))
        .orderBy('collections.created_at', 'asc')
        .orderBy('collections.id', 'asc')
        .limit(take)
        .execute(),
    key: (row) => [row.created_at, row.id],
  });
  return {
    ...page,
    items: page.items.map(({ resolved_level, granted_rank, ...collection }) => ({
      collection,
      actor: { userId: actor.userId, orgRole: actor.role, level: raisedLevel(effectiveLevel(actor.role, [resolved_level as StoredLevel]), roleOfRank(granted_rank)) },
    })),
  };
}

export async function getCollection(ctx: Context, collectionId: string): Promise<CollectionView> {
  const view = await collectionAccess(ctx, collectionId);
  authorize(ctx, 'collection.view', view.actor);
  return view;
}

/** Changes the title, description or default level of a collection (administrators). */
export async function updateCollection(ctx: Context, collectionId: string, patch: UpdateCollectionBody): Promise<CollectionView> {
  return inTransaction(ctx, async (tx) => {
    const { collection, actor } = await collectionAccess(tx, collectionId);
    authorize(tx, 'collection.admin', actor);
    const changes: Partial<CollectionRow> = {};
    if (patch.title !== undefined) changes.title = patch.title;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.defaultLevel !== undefined) changes.default_level = storedLevel(patch.defaultLevel);
    const changed = (Object.keys(changes) as Array<keyof CollectionRow>).some((key) => changes[key] !== collection[key]);
    if (!changed) return { collection, actor };
    changes.updated_at = nowIso(tx);
    await tx.db.updateTable('collections').set(changes).where('id', '=', collection.id).execute();
    return collectionAccess(tx, collection.id);
  });
}

/** The spaces directly in a collection that the caller can see, in their order. */
export async function listCollectionSpaces(ctx: Context, collectionId: string, query: ListCollectionSpacesQuery): Promise<Page<SpaceView>> {
  const { collection, actor } = await collectionAccess(ctx, collectionId);
  authorize(ctx, 'collection.view', actor);
  const chain = await collectionChain(ctx, collection.id);
  const inherited = resolve(chain.map((link) => link.level));
  const resolved = sql<string>`case when spaces.default_level <> 'inherit' then spaces.default_level else ${inherited} end`;
  // What the caller's grants give here: on this collection or above it (the same for every space), or on the space itself.
  const grants = await memberGrants(ctx, collection.organization_id, actor.userId, actor.orgRole);
  const fromCollections = sql.lit(roleRank(grantedRole(grants, chain.map((link) => link.id))));
  const granted = greaterRank(rankOfIds(grants?.spaces, sql.ref('spaces.id')), fromCollections);
  const base = ctx.db
    .selectFrom('spaces')
    .where('spaces.collection_id', '=', collection.id)
    .where('spaces.deleted_at', 'is', null)
    .where(orGranted(spaceViewableBy(actor.orgRole, resolved), granted));
  const page = await paginate({
    signer: ctx.cursors,
    scope: `collection-spaces:${collection.id}:${actor.userId}`,
    request: query,
    count: async () => Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    fetch: (cursor, take) =>
      base
        .selectAll('spaces')
        .select(resolved.as('resolved_level'))
        .select(granted.as('granted_rank'))
        .$if(cursor !== undefined, (q) => q.where(after('spaces.position', 'spaces.id', 'asc', cursor!)))
        .orderBy('spaces.position', 'asc')
        .orderBy('spaces.id', 'asc')
        .limit(take)
        .execute(),
    key: (row) => [Number(row.position), row.id],
  });
  return {
    ...page,
    items: page.items.map(({ resolved_level, granted_rank, ...space }) => ({ space, actor: spaceActorFor(actor.userId, actor.orgRole, resolved_level, space.visibility, granted_rank) })),
  };
}
