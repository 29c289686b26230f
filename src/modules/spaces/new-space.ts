import type { Context } from '../../context.ts';
import { nowIso } from '../../context.ts';
import type { SpaceRow } from '../../db/rows.ts';

/** What a new space is made of; the rest of its row (counters, times, id) is the same for every new space. */
export interface NewSpace {
  organizationId: string;
  collectionId: string | null;
  title: string;
  emoji: string | null;
  icon: string | null;
  visibility: string;
  editMode: string;
  defaultLevel: string;
  language: string | null;
  /** Its place among its siblings (src/modules/spaces/positions.ts). */
  position: number;
  /** Who made it (stored as its creator); null for Quire itself. */
  createdBy: string | null;
  /** Who caused it, as `space.created` tells it: the acting user, or null when a job made it. */
  actorId: string | null;
  gitSync?: string | null;
  /** Makes the space's first revision, once its id is known: empty, or sharing another space's content. */
  firstRevision(spaceId: string): Promise<string>;
}

/**
 * The one way a space comes into being (created, duplicated, or made by a translation): inserts its row and
 * emits `space.created` in the same transaction, so every new space reaches the organization's webhooks.
 */
export async function insertNewSpace(tx: Context, input: NewSpace): Promise<SpaceRow> {
  const id = tx.ids.next();
  const now = nowIso(tx);
  const space: SpaceRow = {
    id,
    organization_id: input.organizationId,
    collection_id: input.collectionId,
    title: input.title,
    emoji: input.emoji,
    icon: input.icon,
    visibility: input.visibility,
    edit_mode: input.editMode,
    default_level: input.defaultLevel,
    language: input.language,
    revision_id: await input.firstRevision(id),
    position: input.position,
    comments: 0,
    change_requests: 0,
    change_requests_open: 0,
    change_requests_draft: 0,
    change_request_seq: 0,
    created_by: input.createdBy,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    git_sync: input.gitSync ?? null,
  };
  await tx.db.insertInto('spaces').values(space).execute();
  await tx.events.emit(tx, 'space.created', { organizationId: space.organization_id, actorId: input.actorId, spaceId: id, title: space.title });
  return space;
}
