import type { Context } from '../../context.ts';
import { inTransaction, requireActor } from '../../context.ts';
import { findRevision } from '../../content/revisions.ts';
import { loadTree } from '../../content/tree.ts';
import { NotFound } from '../../errors.ts';
import { assertSupportedSource, checkImportUrl, importInto, loadImport, prepareImport, type ImportResult, type LoadOptions } from '../../imports/index.ts';
import { authorize } from '../../policy/index.ts';
import { assertEditable } from '../../access/editable.ts';
import type { ImportContentBody } from '../imports/schemas.ts';
import { changeRequestAccess, type ChangeRequestRow } from '../../access/change-requests.ts';
import { assertActive, moveHead, recordContributor } from '../change-requests/lifecycle.ts';

/**
 * Imports into a change request: the same sources and limits as an import into a space, written as one
 * new revision over the change request's head, which then moves to it. The space's own content does not
 * move. Needs the edit level; refused while the space is locked (423) and when the change request is
 * merged or archived (409).
 */
export async function importIntoChangeRequest(
  ctx: Context,
  spaceId: string,
  changeRequestId: string,
  body: ImportContentBody,
  pageId?: string,
  options: LoadOptions = {},
): Promise<ImportResult> {
  const user = requireActor(ctx);
  const check = async (tx: Context, lock = false): Promise<ChangeRequestRow> => {
    const { space, actor, changeRequest } = await changeRequestAccess(tx, spaceId, changeRequestId, { lock });
    authorize(tx, 'space.edit', actor);
    assertEditable(space);
    assertActive(changeRequest);
    return changeRequest;
  };
  const before = await check(ctx);
  assertSupportedSource(body.source);
  checkImportUrl(body.url);
  if (pageId !== undefined) {
    const head = await findRevision(ctx, before.revision);
    if (!head || !(await loadTree(ctx, head.root)).byId.has(pageId)) {
      throw new NotFound(`No page "${pageId}" exists in the change request #${before.number} of the space "${before.space_id}".`);
    }
  }
  const content = await loadImport(ctx, body, options);
  // Laying the pages over the head is the CPU-heavy part: done before the transaction, and reused inside
  // it unless the head moved meanwhile.
  const prepared = await prepareImport(ctx, content, { baseRevisionId: before.revision, spaceId: before.space_id, underPageId: pageId });
  return inTransaction(ctx, async (tx) => {
    const changeRequest = await check(tx, true);
    const result = await importInto(tx, { baseRevisionId: changeRequest.revision, spaceId: changeRequest.space_id, underPageId: pageId, prepared });
    if (!(await moveHead(tx, changeRequest.id, changeRequest.revision, result.revisionId))) {
      throw new Error(`The head of change request ${changeRequest.id} moved while it was locked.`);
    }
    await recordContributor(tx, changeRequest.id, user.userId);
    return result;
  });
}
