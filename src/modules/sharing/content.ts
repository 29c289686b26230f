import type { Context } from '../../context.ts';
import { collectionAccess } from '../../access/collections.ts';
import { collectionChain, spaceAccess } from '../../access/spaces.ts';
import { organizationActorOf } from '../../access/spaces.ts';
import type { OrganizationActor } from '../../policy/index.ts';
import { authorize } from '../../policy/index.ts';
import type { StoredLevel } from '../../policy/space.ts';

/** A space or a collection, as sharing sees it. */
export type ContentKind = 'space' | 'collection';

/** Shared content with what the caller may do there, and the chain its grants and levels come from. */
export interface SharedContent {
  kind: ContentKind;
  id: string;
  organizationId: string;
  /** The caller in the organization (for presenting teams). */
  organizationActor: OrganizationActor;
  /** The content's own stored level, then its collections' nearest first. */
  levels: StoredLevel[];
  /** The collections whose grants reach the content: the collection itself, then its ancestors; for a space, its collection's chain. */
  collectionIds: string[];
}

type Need = 'read' | 'share';

/**
 * Loads a space or collection the caller can see (404 otherwise), and authorizes what they want to do with
 * its sharing: read who it is shared with (anyone with access), or change it (administrators of the content).
 */
export async function sharedContent(ctx: Context, kind: ContentKind, id: string, need: Need): Promise<SharedContent> {
  if (kind === 'space') {
    const { space, actor } = await spaceAccess(ctx, id);
    authorize(ctx, need === 'share' ? 'space.share' : 'space.viewPermissions', actor);
    const chain = await collectionChain(ctx, space.collection_id);
    return {
      kind,
      id: space.id,
      organizationId: space.organization_id,
      organizationActor: organizationActorOf(actor),
      levels: [space.default_level as StoredLevel, ...chain.map((link) => link.level)],
      collectionIds: chain.map((link) => link.id),
    };
  }
  const { collection, actor } = await collectionAccess(ctx, id);
  authorize(ctx, need === 'share' ? 'collection.share' : 'collection.viewPermissions', actor);
  const chain = await collectionChain(ctx, collection.id);
  return {
    kind,
    id: collection.id,
    organizationId: collection.organization_id,
    organizationActor: { userId: actor.userId, role: actor.orgRole ?? null, ownsTeam: false },
    levels: chain.map((link) => link.level),
    collectionIds: chain.map((link) => link.id),
  };
}
