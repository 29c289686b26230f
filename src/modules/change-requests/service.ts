import type { Updateable } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { forkRevision } from '../../content/revisions.ts';
import type { ChangeRequestsTable } from '../../db/tables/change-requests.ts';
import { after, paginate, type Page } from '../../db/keyset.ts';
import { authorize, policies } from '../../policy/index.ts';
import { spaceAccess, type SpaceRow } from '../../access/spaces.ts';
import { assertEditable } from '../../access/editable.ts';
import type { UserRow } from '../../db/rows.ts';
import { changeRequestAccess, type ChangeRequestRow, type ChangeRequestStatus } from '../../access/change-requests.ts';
import { assertNotMerged, assertStatusMove, moveCounters, recordContributor, setStatus } from './lifecycle.ts';
import type { ChangeRequestView } from './views.ts';
import { findSpaceAccess } from '../../access/spaces.ts';
import { mergePermissions } from '../../access/reviews.ts';
import { spaceRules } from '../../policy/space.ts';
import type { CreateChangeRequestBody, ListChangeRequestsQuery, UpdateChangeRequestBody } from './schemas.ts';

/** The status a new change request starts in: a draft, until it is submitted for review (PATCH status open). */
export const INITIAL_STATUS: ChangeRequestStatus = 'draft';

/** Shown for a creator whose user row is gone (users are never deleted today; this keeps the answer whole). */
const UNKNOWN_USER: UserRow = { id: 'unknown', email: '', display_name: 'Unknown user', photo_url: null };

/** The creators of some change requests, by user id, in one query. */
async function creators(ctx: Context, rows: ChangeRequestRow[]): Promise<Map<string, UserRow>> {
  const ids = [...new Set(rows.map((row) => row.created_by).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const users = await ctx.db.selectFrom('users').select(['id', 'email', 'display_name', 'photo_url']).where('id', 'in', ids).execute();
  return new Map(users.map((user) => [user.id, user]));
}

/** Change request rows of one space, ready for the presenter. */
export async function changeRequestViews(ctx: Context, space: Pick<SpaceRow, 'id' | 'revision_id'>, rows: ChangeRequestRow[]): Promise<ChangeRequestView[]> {
  const [users, access] = await Promise.all([creators(ctx, rows), ctx.actor ? findSpaceAccess(ctx, space.id, { includeDeleted: true }) : Promise.resolve(null)]);
  const merge = access ? await mergePermissions(ctx, space.id, access.actor, rows) : null;
  return rows.map((changeRequest) => ({
    changeRequest,
    space,
    createdBy: (changeRequest.created_by && users.get(changeRequest.created_by)) || UNKNOWN_USER,
    ...(access && merge
      ? {
          permissions: {
            edit: spaceRules.edit(access.actor),
            review: policies['changeRequest.review'].allow(access.actor, changeRequest.created_by === access.actor.userId),
            merge: merge.get(changeRequest.id) === true && changeRequest.status !== 'merged' && changeRequest.status !== 'archived',
          },
        }
      : {}),
  }));
}

export async function changeRequestView(ctx: Context, space: Pick<SpaceRow, 'id' | 'revision_id'>, row: ChangeRequestRow): Promise<ChangeRequestView> {
  return (await changeRequestViews(ctx, space, [row]))[0];
}

/**
 * Creates a change request from the space's current revision (edit level; refused while the space is
 * locked). Its head is one new revision row over the same root: no content is copied. The number is the
 * space's next one, taken in the same transaction (the space row is updated first, so concurrent creations
 * queue on it and never share a number).
 */
export async function createChangeRequest(ctx: Context, spaceId: string, body: CreateChangeRequestBody): Promise<ChangeRequestView> {
  const user = requireActor(ctx);
  return inTransaction(ctx, async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.edit', actor);
    assertEditable(space);
    const claimed = await tx.db
      .updateTable('spaces')
      .set((eb) => ({ change_request_seq: eb('change_request_seq', '+', 1) }))
      .where('id', '=', space.id)
      .returning(['change_request_seq', 'revision_id'])
      .executeTakeFirstOrThrow();
    const now = nowIso(tx);
    const row: ChangeRequestRow = {
      id: tx.ids.next(),
      space_id: space.id,
      number: Number(claimed.change_request_seq),
      subject: body.subject ?? null,
      status: INITIAL_STATUS,
      revision_initial: claimed.revision_id,
      revision: await forkRevision(tx, claimed.revision_id, space.id),
      revision_merged_ancestor: claimed.revision_id,
      revision_merged: null,
      agent_task_id: body.agentTaskId ?? null,
      comments: 0,
      created_by: user.userId,
      created_at: now,
      updated_at: now,
      merged_at: null,
      merged_by: null,
    };
    await tx.db.insertInto('change_requests').values(row).execute();
    await moveCounters(tx, space.id, null, row.status as ChangeRequestStatus);
    await recordContributor(tx, row.id, user.userId);
    await tx.events.emit(tx, 'change_request.opened', { organizationId: space.organization_id, actorId: user.userId, spaceId: space.id, changeRequestId: row.id, number: row.number });
    return changeRequestView(tx, { id: space.id, revision_id: claimed.revision_id }, row);
  });
}

/**
 * The change requests of a space with one status (open by default), newest (highest number) first;
 * `contributor` keeps those the user created or wrote content to.
 */
export async function listChangeRequests(ctx: Context, spaceId: string, query: ListChangeRequestsQuery): Promise<Page<ChangeRequestView>> {
  const { space, actor } = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', actor);
  const status = query.status ?? 'open';
  const base = ctx.db
    .selectFrom('change_requests')
    .where('change_requests.space_id', '=', space.id)
    .where('change_requests.status', '=', status)
    .$if(query.contributor !== undefined, (q) =>
      q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('change_request_contributors')
            .select('change_request_contributors.user_id')
            .whereRef('change_request_contributors.change_request_id', '=', 'change_requests.id')
            .where('change_request_contributors.user_id', '=', query.contributor!),
        ),
      ),
    );
  const page = await paginate({
    signer: ctx.cursors,
    scope: `change-requests:${space.id}:${status}:${query.contributor ?? ''}`,
    request: query,
    count: async () => Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    fetch: (cursor, take) =>
      base
        .selectAll('change_requests')
        .$if(cursor !== undefined, (q) => q.where(after('change_requests.number', 'change_requests.id', 'desc', cursor!)))
        .orderBy('change_requests.number', 'desc')
        .orderBy('change_requests.id', 'desc')
        .limit(take)
        .execute(),
    key: (row) => [row.number, row.id],
  });
  return { ...page, items: await changeRequestViews(ctx, space, page.items) };
}

export async function getChangeRequest(ctx: Context, spaceId: string, changeRequestId: string): Promise<ChangeRequestView> {
  const { space, actor, changeRequest } = await changeRequestAccess(ctx, spaceId, changeRequestId);
  authorize(ctx, 'space.view', actor);
  return changeRequestView(ctx, space, changeRequest);
}

/**
 * Changes the subject and the status (edit level). Allowed moves: draft ⇄ open, draft or open → archived,
 * archived → draft or open; nothing changes on a merged change request (409). An unchanged body leaves
 * `updatedAt` alone. Counters of the space follow the status.
 */
export async function updateChangeRequest(ctx: Context, spaceId: string, changeRequestId: string, patch: UpdateChangeRequestBody): Promise<ChangeRequestView> {
  return inTransaction(ctx, async (tx) => {
    // Locked (on PostgreSQL) so a merge or another change of this change request waits for this one.
    const { space, actor, changeRequest } = await changeRequestAccess(tx, spaceId, changeRequestId, { lock: true });
    authorize(tx, 'space.edit', actor);
    assertNotMerged(changeRequest);
    const changes: Updateable<ChangeRequestsTable> = {};
    if (patch.subject !== undefined && patch.subject !== (changeRequest.subject ?? '')) changes.subject = patch.subject;
    const statusChanges = patch.status !== undefined && patch.status !== changeRequest.status;
    if (statusChanges) assertStatusMove(changeRequest, patch.status!);
    if (Object.keys(changes).length === 0 && !statusChanges) return changeRequestView(tx, space, changeRequest);
    if (statusChanges) {
      await setStatus(tx, changeRequest, patch.status!, changes);
    } else {
      await tx.db.updateTable('change_requests').set({ ...changes, updated_at: nowIso(tx) }).where('id', '=', changeRequest.id).execute();
    }
    const updated = await tx.db.selectFrom('change_requests').selectAll().where('id', '=', changeRequest.id).executeTakeFirstOrThrow();
    return changeRequestView(tx, space, updated);
  });
}

/** The change request whose merge made a revision of a space (for the `mergedFrom` of a "merge" revision). */
export async function mergedChangeRequest(ctx: Context, space: Pick<SpaceRow, 'id' | 'revision_id'>, revisionId: string): Promise<ChangeRequestView | undefined> {
  const row = await ctx.db
    .selectFrom('change_requests')
    .selectAll()
    .where('space_id', '=', space.id)
    .where('status', '=', 'merged')
    .where('revision_merged', '=', revisionId)
    .executeTakeFirst();
  return row ? changeRequestView(ctx, space, row) : undefined;
}
