import type { Context } from '../../context.ts';
import { lockSpaceHead, setSpaceHead } from '../../content/head.ts';
import { findRevision, type RevisionRecord } from '../../content/revisions.ts';
import { BadRequest } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { assertEditable } from '../../access/editable.ts';
import { changeRequestAccess, type ChangeRequestRow } from '../../access/change-requests.ts';
import { spaceAccess, type SpaceRow } from '../../access/spaces.ts';
import { assertActive, moveHead, recordContributor } from '../change-requests/lifecycle.ts';
import type { ContentScope } from '../content/service.ts';

/**
 * What a page edit writes to: a change request's head, or the space's own content directly (live edits).
 * Both need the edit level on the space and a space that is not locked (`editMode: "locked"` refuses every
 * content change, 423); a change request must be a draft or open (409).
 */
export interface EditTarget {
  spaceId: string;
  /** Absent: the space's current content (a live edit). */
  changeRequestId?: string;
}

export interface OpenTarget {
  space: SpaceRow;
  changeRequest?: ChangeRequestRow;
  /** The revision the edit builds on: the change request's head, or the space's current revision. */
  head: string;
}

/**
 * Loads the target with the caller's standing and checks that they may edit it. With `lock` (inside the
 * writing transaction) the change request's row, or the space's head, is held until it ends, in the lock
 * order of docs/architecture.md (change request, then space).
 */
export async function openTarget(ctx: Context, target: EditTarget, lock = false): Promise<OpenTarget> {
  if (target.changeRequestId !== undefined) {
    const { space, actor, changeRequest } = await changeRequestAccess(ctx, target.spaceId, target.changeRequestId, { lock });
    authorize(ctx, 'space.edit', actor);
    assertEditable(space);
    assertActive(changeRequest);
    return { space, changeRequest, head: changeRequest.revision };
  }
  const { space, actor } = await spaceAccess(ctx, target.spaceId);
  authorize(ctx, 'space.edit', actor);
  assertEditable(space);
  return { space, head: lock ? await lockSpaceHead(ctx, space.id) : space.revision_id };
}

/** Moves the target from `from` to the revision just written (in the transaction that wrote it). */
export async function moveTarget(tx: Context, opened: OpenTarget, revisionId: string, userId: string): Promise<void> {
  if (opened.changeRequest) {
    if (!(await moveHead(tx, opened.changeRequest.id, opened.head, revisionId))) {
      throw new Error(`The head of change request ${opened.changeRequest.id} moved while it was locked.`);
    }
    await recordContributor(tx, opened.changeRequest.id, userId);
    return;
  }
  if (!(await setSpaceHead(tx, opened.space.id, revisionId, { expected: opened.head }))) {
    throw new Error(`The head of space ${opened.space.id} moved while it was locked.`);
  }
}

/** The content scope of a revision of the target, as the reads present it. */
export function scopeOf(opened: OpenTarget, revision: RevisionRecord): ContentScope {
  return {
    space: opened.space,
    revision,
    current: opened.changeRequest === undefined,
    ...(opened.changeRequest ? { changeRequest: { id: opened.changeRequest.id, number: opened.changeRequest.number } } : {}),
  };
}

/** The revision a `baseRevision` names: one of the space's (its history, or one of its change requests'). */
export async function baseRevisionOf(ctx: Context, space: SpaceRow, baseRevision: string | undefined): Promise<RevisionRecord | undefined> {
  if (baseRevision === undefined) return undefined;
  const revision = await findRevision(ctx, baseRevision);
  if (!revision || revision.spaceId !== space.id) {
    throw new BadRequest(`The member "baseRevision" names no revision of the space "${space.id}": send the "revision" of the answer that gave you the page (or leave it out to write over the current content).`);
  }
  return revision;
}
