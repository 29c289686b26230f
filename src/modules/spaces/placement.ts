import type { Updateable } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { forkRevision } from '../../content/revisions.ts';
import { announceNewSpaceHead } from '../../content/head.ts';
import type { SpacesTable } from '../../db/tables/content.ts';
import { Conflict } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { collectionActor, parentCollection } from '../../access/collections.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { organizationActorOf, spaceAccess } from '../../access/spaces.ts';
import { insertNewSpace } from './new-space.ts';
import { endPosition, placeIn } from './positions.ts';
import type { SpaceView } from './views.ts';
import type { MoveBody, TransferBody } from './schemas.ts';
import { visibilityOutsideCollections } from './service.ts';

const COPY_SUFFIX = ' (copy)';
const MAX_TITLE = 50;

/** "<title> (copy)", the title shortened so that the whole fits in 50 characters. */
export function copyTitle(title: string): string {
  return `${Array.from(title).slice(0, MAX_TITLE - COPY_SUFFIX.length).join('').trimEnd()}${COPY_SUFFIX}`;
}

/**
 * Moves a space into a collection (`parent`), to the root of its organization (`parent: null`), or among
 * its siblings (`position`), at the end when no position is given. 400 for a parent or sibling that is not
 * there, 409 when the space is already exactly there. Leaving collections turns 'in-collection' into
 * 'private'. Needs the admin level on the space, and the create level in the target collection.
 */
export async function moveSpace(ctx: Context, spaceId: string, body: MoveBody): Promise<SpaceView> {
  return inTransaction(ctx, async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.admin', actor);
    const parentId = body.parent === undefined ? space.collection_id : body.parent;
    if (parentId !== null) {
      const parent = await parentCollection(tx, space.organization_id, parentId);
      authorize(tx, 'collection.create', parent.actor);
    }
    const placement = await placeIn(tx, space.organization_id, parentId, { type: 'space', id: space.id }, body.position);
    if (placement.unchanged) throw new Conflict(`Space "${space.id}" is already there: the move would change nothing.`);
    const changes: Updateable<SpacesTable> = { collection_id: parentId, position: placement.position, updated_at: nowIso(tx) };
    if (parentId === null) changes.visibility = visibilityOutsideCollections(space.visibility);
    await tx.db.updateTable('spaces').set(changes).where('id', '=', space.id).execute();
    return spaceAccess(tx, space.id);
  });
}

/**
 * A new space with the settings and the content of another, right after it among its siblings, titled as a
 * copy. The content is shared, not copied: the new space's first revision points at the same content as the
 * original's current one. Comments and change requests are not copied. Needs to see the space, the create
 * role in its organization, and the create level in its collection.
 */
export async function duplicateSpace(ctx: Context, spaceId: string): Promise<SpaceView> {
  return inTransaction(ctx, async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.view', actor);
    authorize(tx, 'spaces.create', organizationActorOf(actor));
    if (space.collection_id) authorize(tx, 'collection.create', await collectionActor(tx, space.collection_id, actor.orgRole));
    const placement = await placeIn(tx, space.organization_id, space.collection_id, null, { after: { type: 'space', space: space.id } });
    const copy = await insertNewSpace(tx, {
      organizationId: space.organization_id,
      collectionId: space.collection_id,
      title: copyTitle(space.title),
      emoji: space.emoji,
      icon: space.icon,
      visibility: space.visibility,
      editMode: space.edit_mode,
      defaultLevel: space.default_level,
      language: space.language,
      position: placement.position,
      createdBy: actor.userId,
      actorId: actor.userId,
      gitSync: space.git_sync,
      firstRevision: (spaceId) => forkRevision(tx, space.revision_id, spaceId),
    });
    await announceNewSpaceHead(tx, copy.id, copy.revision_id);
    return { space: copy, actor };
  });
}

/**
 * Moves a space to another organization, at the end of its root (it leaves its collection; 'in-collection'
 * becomes 'private'). The caller must administer the space and the target organization. 409 when the space
 * is already there.
 */
export async function transferSpace(ctx: Context, spaceId: string, body: TransferBody): Promise<SpaceView> {
  return inTransaction(ctx, async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.admin', actor);
    if (body.organization === space.organization_id) {
      throw new Conflict(`Space "${space.id}" already belongs to organization "${body.organization}": the transfer would change nothing.`);
    }
    const target = await organizationAccess(tx, body.organization);
    authorize(tx, 'content.transferIn', target.actor);
    await tx.db
      .updateTable('spaces')
      .set({
        organization_id: target.organization.id,
        collection_id: null,
        position: await endPosition(tx, target.organization.id, null),
        visibility: visibilityOutsideCollections(space.visibility),
        updated_at: nowIso(tx),
      })
      .where('id', '=', space.id)
      .execute();
    return spaceAccess(tx, space.id);
  });
}
