import { sql, type Updateable } from 'kysely';
import type { Context } from '../../context.ts';
import { nowIso } from '../../context.ts';
import { Conflict } from '../../errors.ts';
import type { ChangeRequestsTable } from '../../db/tables/change-requests.ts';
import type { ChangeRequestRow, ChangeRequestStatus } from '../../access/change-requests.ts';

/**
 * The rules of a change request's life: which status moves are allowed, what may still change in which
 * status, the space's counters, and who contributed.
 *
 *   draft ⇄ open;  draft, open → archived;  archived → draft, open;  draft, open → merged (by merging only).
 *   merged is final.
 */

/** Refuses any change to a merged change request. */
export function assertNotMerged(changeRequest: Pick<ChangeRequestRow, 'number' | 'status'>): void {
  if (changeRequest.status === 'merged') {
    throw new Conflict(`Change request #${changeRequest.number} is merged: a merged change request cannot change. Create a new change request for further changes.`);
  }
}

/**
 * Refuses content changes (import, update, merge) unless the change request is a draft or open: a merged
 * one is final, an archived one must be reopened first.
 */
export function assertActive(changeRequest: Pick<ChangeRequestRow, 'number' | 'status'>): void {
  assertNotMerged(changeRequest);
  if (changeRequest.status === 'archived') {
    throw new Conflict(
      // Read in the browser too (a live page stopped by it): the review screen's button first, then the API's way.
      `Change request #${changeRequest.number} is archived: reopen it first (Reopen on its review screen, or PATCH { "status": "open" }).`,
    );
  }
}

/** Every move between statuses a caller may make with PATCH (merged is reached by merging, and is final). */
export function assertStatusMove(changeRequest: Pick<ChangeRequestRow, 'number' | 'status'>, to: ChangeRequestStatus): void {
  assertNotMerged(changeRequest);
  if (to === 'merged') throw new Conflict('A change request becomes "merged" only by merging it: POST …/merge.');
}

/** The space's counters that one change request in `status` adds to. */
function counts(status: ChangeRequestStatus | null) {
  return { open: status === 'open' ? 1 : 0, draft: status === 'draft' ? 1 : 0, all: status === null ? 0 : 1 };
}

/**
 * Moves the space's counters (`changeRequests`, `changeRequestsOpen`, `changeRequestsDraft`) for a change
 * request going from `from` to `to` (null: not existing). Written as increments, so concurrent changes to
 * different change requests of one space never lose a count.
 */
export async function moveCounters(tx: Context, spaceId: string, from: ChangeRequestStatus | null, to: ChangeRequestStatus | null): Promise<void> {
  const before = counts(from);
  const after = counts(to);
  const delta = { all: after.all - before.all, open: after.open - before.open, draft: after.draft - before.draft };
  if (delta.all === 0 && delta.open === 0 && delta.draft === 0) return;
  await tx.db
    .updateTable('spaces')
    .set({
      change_requests: sql`change_requests + ${delta.all}`,
      change_requests_open: sql`change_requests_open + ${delta.open}`,
      change_requests_draft: sql`change_requests_draft + ${delta.draft}`,
    })
    .where('id', '=', spaceId)
    .execute();
}

/**
 * Changes the status of a change request, guarded by the status it was read with: when another request
 * changed it meanwhile, nothing is written and the caller gets 409 (so counters are never moved twice).
 */
export async function setStatus(tx: Context, changeRequest: ChangeRequestRow, to: ChangeRequestStatus, extra: Updateable<ChangeRequestsTable> = {}): Promise<void> {
  const from = changeRequest.status as ChangeRequestStatus;
  const result = await tx.db
    .updateTable('change_requests')
    .set({ ...extra, status: to, updated_at: nowIso(tx) })
    .where('id', '=', changeRequest.id)
    .where('status', '=', from)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    throw new Conflict(`Change request #${changeRequest.number} was changed by another request at the same time; read it again and retry.`);
  }
  await moveCounters(tx, changeRequest.space_id, from, to);
}

/** Records that the acting user contributed to a change request (created it, or wrote to its content). */
export async function recordContributor(tx: Context, changeRequestId: string, userId: string): Promise<void> {
  await tx.db
    .insertInto('change_request_contributors')
    .values({ change_request_id: changeRequestId, user_id: userId, contributed_at: nowIso(tx) })
    .onConflict((oc) => oc.columns(['change_request_id', 'user_id']).doNothing())
    .execute();
}

/** Moves a change request's head from `from` to `to`; false when it was no longer at `from`. */
export async function moveHead(tx: Context, changeRequestId: string, from: string, to: string, extra: Updateable<ChangeRequestsTable> = {}): Promise<boolean> {
  const result = await tx.db
    .updateTable('change_requests')
    .set({ ...extra, revision: to, updated_at: nowIso(tx) })
    .where('id', '=', changeRequestId)
    .where('revision', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
