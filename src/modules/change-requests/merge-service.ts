import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { lockSpaceHead, setSpaceHead } from '../../content/head.ts';
import { mergeRevisions } from '../../content/merge/index.ts';
import { enforceMergeRules } from '../../access/reviews.ts';
import type { MergeConflict } from '../../content/merge/types.ts';
import { createRevision } from '../../content/revisions.ts';
import { authorize } from '../../policy/index.ts';
import { assertEditable } from '../../access/editable.ts';
import { changeRequestAccess, type ChangeRequestAccess, type ChangeRequestRow } from '../../access/change-requests.ts';
import type { ChangeRequestMerging } from '../../events.ts';
import { assertActive, moveHead, recordContributor, setStatus } from './lifecycle.ts';

/**
 * Merging a change request into its space, and updating a change request from its space: the same
 * three-way merge (src/content/merge), from the last revision of the space the change request includes
 * (`revision_merged_ancestor`, the merge base).
 *
 * First attempt, optimistic: the merge is computed outside the transaction (it reads content and writes
 * only content objects, which are shared by hash, so unused ones are harmless); the transaction then moves
 * the space's revision with `where revision_id = <the head merged into>` and the change request's with
 * `where revision = <its head>`. When another writer got there first, that transaction is rolled back and
 * the second attempt computes the merge again inside a transaction that holds the change request's row and
 * the space's row (`FOR NO KEY UPDATE` on PostgreSQL; SQLite runs one transaction at a time), so it cannot be
 * overtaken again. Two merges into one space at the same moment therefore both land, or the later one
 * reports its conflicts with the earlier: no merge overwrites another's result.
 */

export type MergeOutcome = { result: 'merge'; revision: string } | { result: 'conflicts'; revision: string; conflicts: MergeConflict[] };
export type UpdateOutcome = { result: 'update'; revision: string } | { result: 'conflicts'; revision: string; conflicts: MergeConflict[] };

/** A merge computed before the transaction: the revisions it merged and the root it made. */
interface Planned {
  base: string;
  ours: string;
  theirs: string;
  root: string;
}

/** Thrown inside a transaction to roll it back when a head moved after the merge was computed. */
class HeadMoved extends Error {}

type Conflicts = { result: 'conflicts'; revision: string; conflicts: MergeConflict[] };
type Check = (ctx: Context, options?: { lock?: boolean }) => Promise<ChangeRequestAccess>;
type MergeInputs = Omit<Planned, 'root'>;

/** How many merges and updates had to be computed again because a head moved (for tests and measurements). */
export const mergeRetries = { count: 0 };

/** The optimistic attempt, then (when a head moved under it) the attempt that holds the rows. */
async function optimisticThenLocked<T>(attempt: (locked: boolean) => Promise<T>): Promise<T> {
  try {
    return await attempt(false);
  } catch (error) {
    if (!(error instanceof HeadMoved)) throw error;
    mergeRetries.count++;
    return attempt(true);
  }
}

/** Loads a change request that may still change, for a caller the policy allows, in a space that is not locked. */
function activeChangeRequest(spaceId: string, changeRequestId: string, policy: 'space.merge' | 'space.edit'): Check {
  return async (c, options) => {
    const access = await changeRequestAccess(c, spaceId, changeRequestId, options);
    authorize(c, policy, access.actor);
    if (policy === 'space.merge') await enforceMergeRules(c, access);
    assertEditable(access.space);
    assertActive(access.changeRequest);
    return access;
  };
}

/** What tells a merge into the space from an update of the change request; the rest is one skeleton. */
interface Direction<R> {
  policy: 'space.merge' | 'space.edit';
  /** The three revisions merged, from the change request and the space's head. */
  inputs(changeRequest: ChangeRequestRow, spaceHead: string): MergeInputs;
  /** The answer when there is nothing to merge, else null. */
  upToDate(changeRequest: ChangeRequestRow, spaceHead: string): R | null;
  /** The space's head inside the writing transaction, when nothing was planned before it. */
  readSpaceHead(tx: Context, access: ChangeRequestAccess): Promise<string>;
  /** The head the plan merged with. */
  plannedSpaceHead(planned: Planned): string;
  /** Writes the merged root as a revision and moves the heads; throws HeadMoved when one moved. */
  apply(tx: Context, access: ChangeRequestAccess, changeRequest: ChangeRequestRow, spaceHead: string, root: string): Promise<R>;
}

/**
 * The skeleton both directions share: the merge planned outside the transaction (first attempt), checked
 * and written inside it with the change request's row locked (then, on the second attempt, computed there).
 */
async function mergeWithSpace<R>(ctx: Context, spaceId: string, changeRequestId: string, direction: Direction<R>): Promise<R | Conflicts> {
  const check = activeChangeRequest(spaceId, changeRequestId, direction.policy);
  return optimisticThenLocked(async (locked) => {
    let planned: Planned | undefined;
    if (!locked) {
      const { space, changeRequest } = await check(ctx);
      const early = direction.upToDate(changeRequest, space.revision_id);
      if (early) return early;
      const input = direction.inputs(changeRequest, space.revision_id);
      const result = await mergeRevisions(ctx, input);
      if (result.result === 'conflicts') return { result: 'conflicts', revision: changeRequest.revision, conflicts: result.conflicts };
      planned = { ...input, root: result.root };
    }
    return inTransaction(ctx, async (tx): Promise<R | Conflicts> => {
      // The change request's row first, then the space's: every writer takes them in this order.
      const access = await check(tx, { lock: true });
      const changeRequest = access.changeRequest;
      const spaceHead = planned ? direction.plannedSpaceHead(planned) : await direction.readSpaceHead(tx, access);
      const input = direction.inputs(changeRequest, spaceHead);
      if (planned && (input.base !== planned.base || input.ours !== planned.ours || input.theirs !== planned.theirs)) throw new HeadMoved();
      const early = direction.upToDate(changeRequest, spaceHead);
      if (early) return early;
      let root = planned?.root;
      if (root === undefined) {
        const result = await mergeRevisions(tx, input);
        if (result.result === 'conflicts') return { result: 'conflicts', revision: changeRequest.revision, conflicts: result.conflicts };
        root = result.root;
      }
      return direction.apply(tx, access, changeRequest, spaceHead, root);
    });
  });
}

/**
 * POST …/merge: merges the change request's head into the space's current revision (the merge level;
 * 423 while the space is locked; 409 when the change request is merged or archived). Without conflicts, a
 * new revision of type "merge" with parents [space head, change request head] becomes the space's current
 * revision and the change request is merged. With conflicts nothing changes, and the answer lists them
 * (`revision` is then the change request's unchanged head).
 */
export async function mergeChangeRequest(ctx: Context, spaceId: string, changeRequestId: string, log: ChangeRequestMerging['log']): Promise<MergeOutcome> {
  const user = requireActor(ctx);
  // Before the merge reads the change request, and only for a caller who may merge it now: live edits stored
  // but not yet written to it are written (src/live/pending.ts, a listener assembled in src/services.ts).
  await activeChangeRequest(spaceId, changeRequestId, 'space.merge')(ctx);
  await ctx.events.emit(ctx, 'change-request-merging', { spaceId, changeRequestId, log });
  return mergeWithSpace<MergeOutcome>(ctx, spaceId, changeRequestId, {
    policy: 'space.merge',
    inputs: (changeRequest, spaceHead) => ({ base: changeRequest.revision_merged_ancestor, ours: spaceHead, theirs: changeRequest.revision }),
    upToDate: () => null,
    readSpaceHead: (tx, access) => lockSpaceHead(tx, access.space.id),
    plannedSpaceHead: (planned) => planned.ours,
    apply: async (tx, access, changeRequest, spaceHead, root) => {
      const revision = await createRevision(tx, { spaceId: access.space.id, type: 'merge', parents: [spaceHead, changeRequest.revision], root });
      if (!(await setSpaceHead(tx, access.space.id, revision, { expected: spaceHead }))) throw new HeadMoved();
      await setStatus(tx, changeRequest, 'merged', { revision_merged: revision, merged_at: nowIso(tx), merged_by: user.userId });
      await tx.events.emit(tx, 'change_request.merged', {
        organizationId: access.space.organization_id,
        actorId: user.userId,
        spaceId: access.space.id,
        changeRequestId: changeRequest.id,
        number: changeRequest.number,
        revisionId: revision,
      });
      return { result: 'merge', revision };
    },
  });
}

/**
 * POST …/update: pulls the space's current content into the change request by the same merge (base: the
 * merge base; ours: the change request's head; theirs: the space's revision). Without conflicts, a new
 * revision of type "update" with parents [change request head, space head] becomes the change request's
 * head and the space's revision its new merge base, so it is no longer outdated. An up-to-date change
 * request is left as it is. With conflicts nothing changes and the answer lists them. Edit level; 423
 * while the space is locked; 409 when merged or archived.
 */
export async function updateChangeRequestFromSpace(ctx: Context, spaceId: string, changeRequestId: string): Promise<UpdateOutcome> {
  const user = requireActor(ctx);
  return mergeWithSpace<UpdateOutcome>(ctx, spaceId, changeRequestId, {
    policy: 'space.edit',
    inputs: (changeRequest, spaceHead) => ({ base: changeRequest.revision_merged_ancestor, ours: changeRequest.revision, theirs: spaceHead }),
    upToDate: (changeRequest, spaceHead) => (changeRequest.revision_merged_ancestor === spaceHead ? { result: 'update', revision: changeRequest.revision } : null),
    // The space may move on meanwhile: what is pulled in is the head that was merged, the new merge base.
    readSpaceHead: async (_tx, access) => access.space.revision_id,
    plannedSpaceHead: (planned) => planned.theirs,
    apply: async (tx, access, changeRequest, spaceHead, root) => {
      const revision = await createRevision(tx, { spaceId: access.space.id, type: 'update', parents: [changeRequest.revision, spaceHead], root });
      if (!(await moveHead(tx, changeRequest.id, changeRequest.revision, revision, { revision_merged_ancestor: spaceHead }))) throw new HeadMoved();
      await recordContributor(tx, changeRequest.id, user.userId);
      return { result: 'update', revision };
    },
  });
}
