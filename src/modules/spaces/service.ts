import type { Updateable } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { createInitialRevision } from '../../content/revisions.ts';
import type { SpacesTable } from '../../db/tables/content.ts';
import { BadRequest } from '../../errors.ts';
import { after, paginate, type Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { effectiveLevel, type SpaceVisibility, type StoredLevel } from '../../policy/space.ts';
import { parentCollection } from '../../access/collections.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { collectionLevelChain, spaceAccess } from '../../access/spaces.ts';
import { orGranted, spaceGrantRank, spaceResolvedLevel, spaceActorFor, spaceViewableBy, withContentLevels } from '../../access/levels.ts';
import { loadGrants } from '../../access/grants.ts';
import { insertNewSpace } from './new-space.ts';
import { endPosition } from './positions.ts';
import type { SpaceView } from './views.ts';
import type { CreateSpaceBody, DefaultLevel, ListSpacesQuery, UpdateSpaceBody } from './schemas.ts';

export const DEFAULT_SPACE_TITLE = 'Untitled';

/** A default level as stored: null (no access but for administrators) is 'none'. */
export function storedLevel(level: DefaultLevel): StoredLevel {
  return level === null ? 'none' : level;
}

/** 'in-collection' only means something for a space inside a collection. */
export function checkVisibility(visibility: SpaceVisibility, collectionId: string | null): void {
  if (visibility === 'in-collection' && !collectionId) {
    throw new BadRequest('The body member "visibility" cannot be "in-collection": that visibility is only for spaces inside a collection.');
  }
}

/** The visibility a space keeps when it leaves its collection: 'in-collection' becomes 'private'. */
export function visibilityOutsideCollections(visibility: string): string {
  return visibility === 'in-collection' ? 'private' : visibility;
}

/**
 * Creates an empty space (one empty first revision) at the end of the root of the organization, or of the
 * collection `parent`. Spaces inside a collection are 'in-collection' unless told otherwise, others
 * 'private'. A requested `template` is not applied here: templates are applied to a space with
 * POST /v1/spaces/{spaceId}/content/template.
 */
export async function createSpace(ctx: Context, organizationId: string, input: CreateSpaceBody): Promise<SpaceView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'spaces.create', actor);
    let collectionId: string | null = null;
    if (input.parent !== undefined) {
      const parent = await parentCollection(tx, organization.id, input.parent);
      authorize(tx, 'collection.create', parent.actor);
      collectionId = parent.collection.id;
    }
    const visibility = input.visibility ?? (collectionId ? 'in-collection' : 'private');
    checkVisibility(visibility, collectionId);
    const space = await insertNewSpace(tx, {
      organizationId: organization.id,
      collectionId,
      title: input.title ?? DEFAULT_SPACE_TITLE,
      emoji: input.emoji ?? null,
      icon: null,
      visibility,
      editMode: input.editMode ?? 'live',
      defaultLevel: 'inherit',
      language: null,
      position: await endPosition(tx, organization.id, collectionId),
      createdBy: actor.userId,
      actorId: actor.userId,
      firstRevision: (spaceId) => createInitialRevision(tx, spaceId),
    });
    const chain = ['inherit' as const, ...(await collectionLevelChain(tx, collectionId))];
    const level = effectiveLevel(actor.role, chain);
    return { space, actor: { userId: actor.userId, orgRole: actor.role, level, visibility, sharedWith: false } };
  });
}

/** The spaces of an organization that the caller can see (not those in the trash), oldest first. */
export async function listSpaces(ctx: Context, organizationId: string, query: ListSpacesQuery): Promise<Page<SpaceView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'spaces.list', actor);
  const grants = await loadGrants(ctx, organization.id, actor.userId);
  const granted = spaceGrantRank(grants);
  const base = withContentLevels(ctx.db, organization.id, grants)
    .selectFrom('spaces')
    .leftJoin('collection_levels', 'collection_levels.id', 'spaces.collection_id')
    .where('spaces.organization_id', '=', organization.id)
    .where('spaces.deleted_at', 'is', null)
    .where(orGranted(spaceViewableBy(actor.role, spaceResolvedLevel), granted));
  const page = await paginate({
    signer: ctx.cursors,
    scope: `spaces:${organization.id}:${actor.userId}`,
    request: query,
    count: async () => Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    fetch: (cursor, take) =>
      base
        .selectAll('spaces')
        .select(spaceResolvedLevel.as('resolved_level'))
        .select(granted.as('granted_rank'))
        .$if(cursor !== undefined, (q) => q.where(after('spaces.created_at', 'spaces.id', 'asc', cursor!)))
        .orderBy('spaces.created_at', 'asc')
        .orderBy('spaces.id', 'asc')
        .limit(take)
        .execute(),
    key: (row) => [row.created_at, row.id],
  });
  return {
    ...page,
    items: page.items.map(({ resolved_level, granted_rank, ...space }) => ({ space, actor: spaceActorFor(actor.userId, actor.role, resolved_level, space.visibility, granted_rank) })),
  };
}

/** A space the caller can see. `shareKey` is accepted by the route and not used until share links exist. */
export async function getSpace(ctx: Context, spaceId: string): Promise<SpaceView> {
  const view = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', view.actor);
  return view;
}

/**
 * Changes the settings of a space (administrators). An emoji replaces the icon and an icon replaces the
 * emoji (a space shows one of them); null removes either.
 */
export async function updateSpace(ctx: Context, spaceId: string, patch: UpdateSpaceBody): Promise<SpaceView> {
  return inTransaction(ctx, async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.admin', actor);
    if (typeof patch.emoji === 'string' && typeof patch.icon === 'string') {
      throw new BadRequest('The body members "emoji" and "icon" cannot both be set: a space shows an emoji or an icon. Give one of them.');
    }
    const changes: Updateable<SpacesTable> = {};
    if (patch.title !== undefined) changes.title = patch.title;
    if (patch.editMode !== undefined) changes.edit_mode = patch.editMode;
    if (patch.defaultLevel !== undefined) changes.default_level = storedLevel(patch.defaultLevel);
    if (patch.language !== undefined) changes.language = patch.language;
    if (patch.visibility !== undefined) {
      checkVisibility(patch.visibility, space.collection_id);
      changes.visibility = patch.visibility;
    }
    if (patch.emoji !== undefined) {
      changes.emoji = patch.emoji;
      if (patch.emoji !== null) changes.icon = null;
    }
    if (patch.icon !== undefined) {
      changes.icon = patch.icon;
      if (patch.icon !== null) changes.emoji = null;
    }
    const changed = (Object.keys(changes) as Array<keyof SpacesTable>).some((key) => changes[key] !== space[key]);
    if (!changed) return { space, actor };
    changes.updated_at = nowIso(tx);
    await tx.db.updateTable('spaces').set(changes).where('id', '=', space.id).execute();
    await tx.events.emit(tx, 'space.updated', { organizationId: space.organization_id, actorId: actor.userId, spaceId: space.id, title: changes.title ?? space.title });
    return spaceAccess(tx, space.id);
  });
}
