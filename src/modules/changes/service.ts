import type { Context } from '../../context.ts';
import { changeRequestAccess } from '../../access/change-requests.ts';
import { spaceAccess } from '../../access/spaces.ts';
import { semanticChanges, type SemanticChange } from '../../content/changes.ts';
import { findRevision } from '../../content/revisions.ts';
import { NotFound } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { mergedChangeRequest } from '../change-requests/service.ts';
import type { ChangeRequestView } from '../change-requests/views.ts';

export interface ChangesView {
  spaceId: string;
  /** The revision the changes lead to (file download addresses point into it). */
  revisionId: string;
  changes: SemanticChange[];
  more: number;
  mergedFrom?: ChangeRequestView;
}

const DEFAULT_LIMIT = 10;

function limited(changes: SemanticChange[], limit: number | undefined): { changes: SemanticChange[]; more: number } {
  const take = limit ?? DEFAULT_LIMIT;
  return { changes: changes.slice(0, take), more: Math.max(0, changes.length - take) };
}

async function rootOf(ctx: Context, revisionId: string): Promise<string> {
  const revision = await findRevision(ctx, revisionId);
  if (!revision) throw new Error(`Revision ${revisionId} is missing.`);
  return revision.root;
}

/**
 * What a change request changes: from the last revision of the space it includes (the merge base) to its
 * head, so changes made in the space meanwhile are not counted as its own.
 */
export async function changeRequestChanges(ctx: Context, spaceId: string, changeRequestId: string, limit?: number): Promise<ChangesView> {
  const { space, actor, changeRequest } = await changeRequestAccess(ctx, spaceId, changeRequestId);
  authorize(ctx, 'space.view', actor);
  const base = changeRequest.revision_merged_ancestor ?? changeRequest.revision_initial;
  const [before, after] = await Promise.all([rootOf(ctx, base), rootOf(ctx, changeRequest.revision)]);
  return { spaceId: space.id, revisionId: changeRequest.revision, ...limited(await semanticChanges(ctx, before, after), limit) };
}

/** What a revision of a space changed from its first parent (from nothing for a first revision); a merge names its change request. */
export async function revisionChanges(ctx: Context, spaceId: string, revisionId: string, limit?: number): Promise<ChangesView> {
  const { space, actor } = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', actor);
  const revision = await findRevision(ctx, revisionId);
  if (!revision || revision.spaceId !== space.id) throw new NotFound(`No revision "${revisionId}" exists in the space "${space.id}".`);
  const before = revision.parents.length > 0 ? await rootOf(ctx, revision.parents[0]) : null;
  const view: ChangesView = { spaceId: space.id, revisionId: revision.id, ...limited(await semanticChanges(ctx, before, revision.root), limit) };
  if (revision.type === 'merge') {
    const mergedFrom = await mergedChangeRequest(ctx, space, revision.id);
    if (mergedFrom) view.mergedFrom = mergedFrom;
  }
  return view;
}
