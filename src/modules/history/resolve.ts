import type { Context } from '../../context.ts';
import { inTransaction, requireActor } from '../../context.ts';
import { changeRequestAccess } from '../../access/change-requests.ts';
import { assertEditable } from '../../access/editable.ts';
import { mergeRevisions } from '../../content/merge/index.ts';
import { createRevision } from '../../content/revisions.ts';
import { loadTree, type TreePage } from '../../content/tree.ts';
import { RevisionWriter } from '../../content/writer.ts';
import { BadRequest, Conflict } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { assertActive, moveHead, recordContributor } from '../change-requests/lifecycle.ts';
import type { UpdateOutcome } from '../change-requests/merge-service.ts';
import type { ResolveConflictsBody } from './schemas.ts';
import { pageContent } from './service.ts';
import { alignPageConflict, assertSameRevisions, resolvedText } from './page-conflict.ts';

/**
 * Resolving a change request's conflicts with its space (edit level; refused while the space is locked, and
 * for a merged or archived change request). The person chose, per conflicting page, the change request's
 * version, the space's, or a text they edited. What it does is the update from the space
 * (`POST …/update`) with those choices:
 *
 * 1. each resolved page of the change request is first aligned with the space's version, so both sides made
 *    the same change to it and the three-way merge (src/content/merge) takes it without conflict; that
 *    aligned content is a revision no head points to (the content collector removes it later);
 * 2. the merge of that with the space's head, from the change request's merge base: every other change of
 *    both sides is combined as an update combines them (a conflict on a page the person did not resolve is
 *    still answered as conflicts, and nothing changes);
 * 3. the chosen version of each resolved page is written over the merged content, as one revision of type
 *    "update" with parents [the change request's head, the space's head], which becomes the change
 *    request's head; the space's head is its new merge base, so merging it next meets no conflict.
 */
export async function resolveConflicts(ctx: Context, spaceId: string, changeRequestId: string, body: ResolveConflictsBody): Promise<UpdateOutcome> {
  const user = requireActor(ctx);
  return inTransaction(ctx, async (tx) => {
    const access = await changeRequestAccess(tx, spaceId, changeRequestId, { lock: true });
    authorize(tx, 'space.edit', access.actor);
    assertEditable(access.space);
    assertActive(access.changeRequest);
    const changeRequest = access.changeRequest;
    const spaceHead = access.space.revision_id;
    if (changeRequest.revision_merged_ancestor === spaceHead) {
      throw new BadRequest(`Change request #${changeRequest.number} already includes the space's current content: it has no conflict with it to resolve.`);
    }
    const seen = new Set<string>();
    for (const resolution of body.resolutions) {
      if (seen.has(resolution.pageId)) throw new BadRequest(`The page "${resolution.pageId}" is resolved twice: send one resolution per page.`);
      seen.add(resolution.pageId);
      if (resolution.take === 'edited' && resolution.markdown === undefined) throw new BadRequest(`The page "${resolution.pageId}" is resolved as "edited" without its "markdown": send the text to keep.`);
      if (resolution.take === 'blocks' && (resolution.blocks === undefined || resolution.markdown !== undefined)) {
        throw new BadRequest(`The page "${resolution.pageId}" is resolved as "blocks": send "blocks" (one choice per conflicting run), not "markdown".`);
      }
      if (resolution.take !== 'blocks' && resolution.blocks !== undefined) throw new BadRequest(`The page "${resolution.pageId}" takes "${resolution.take}": "blocks" goes only with "blocks".`);
      if ((resolution.take === 'change-request' || resolution.take === 'space') && (resolution.markdown !== undefined || resolution.title !== undefined)) {
        throw new BadRequest(`The page "${resolution.pageId}" takes the ${resolution.take}'s version: "title" and "markdown" go only with "edited".`);
      }
    }
    const revisions = { base: changeRequest.revision_merged_ancestor, space: spaceHead, changeRequest: changeRequest.revision };
    assertSameRevisions({ revisions }, body.revisions);
    // A page resolved block by block becomes an edited text: the blocks merged, with the choices made.
    const texts = new Map<string, string>();
    const blockTitles = new Map<string, string>();
    for (const resolution of body.resolutions) {
      if (resolution.take !== 'blocks') continue;
      const view = await alignPageConflict(tx, resolution.pageId, revisions);
      texts.set(resolution.pageId, resolvedText(view, resolution.blocks!));
      // Without a title, a rename made on one side only is kept (the space's when both renamed it).
      blockTitles.set(resolution.pageId, view.title.base === view.title.space ? view.title.changeRequest : view.title.space);
    }
    const heads = await tx.db.selectFrom('revisions').select(['id', 'root']).where('id', 'in', [changeRequest.revision, spaceHead]).execute();
    const rootOf = (id: string) => heads.find((row) => row.id === id)!.root;
    const [ours, theirs] = await Promise.all([loadTree(tx, rootOf(changeRequest.revision)), loadTree(tx, rootOf(spaceHead))]);
    const both = (pageId: string): { ours: TreePage; theirs: TreePage } => {
      const mine = ours.byId.get(pageId);
      const space = theirs.byId.get(pageId);
      if (!mine || !space) {
        throw new BadRequest(`The page "${pageId}" is not in both the change request and the space (one side deleted it): restore or delete it in the editor, then update the change request.`);
      }
      return { ours: mine, theirs: space };
    };

    // 1. The change request with each resolved page as the space has it.
    const aligned = await RevisionWriter.fromRevision(tx, changeRequest.revision);
    for (const resolution of body.resolutions) {
      const sides = both(resolution.pageId);
      if (sides.ours.node.type !== sides.theirs.node.type) throw new BadRequest(`The page "${resolution.pageId}" changed kind on one side: resolve it in the editor.`);
      aligned.updatePage(resolution.pageId, await pageContent(tx, sides.theirs));
    }
    const alignedRevision = await createRevision(tx, { spaceId: access.space.id, type: 'edits', parents: [changeRequest.revision], root: await aligned.write(tx) });

    // 2. The merge with the space.
    const merged = await mergeRevisions(tx, { base: changeRequest.revision_merged_ancestor, ours: alignedRevision, theirs: spaceHead });
    if (merged.result === 'conflicts') return { result: 'conflicts', revision: changeRequest.revision, conflicts: merged.conflicts };

    // 3. The chosen versions over the merged content.
    const writer = await RevisionWriter.fromRoot(tx, merged.root);
    for (const resolution of body.resolutions) {
      const sides = both(resolution.pageId);
      if (resolution.take === 'change-request') writer.updatePage(resolution.pageId, await pageContent(tx, sides.ours));
      else if (resolution.take === 'edited' || resolution.take === 'blocks') {
        const text = texts.get(resolution.pageId) ?? resolution.markdown ?? '';
        writer.updatePage(resolution.pageId, { title: resolution.title ?? (resolution.take === 'blocks' ? blockTitles.get(resolution.pageId) : undefined) ?? sides.theirs.node.title, ...(sides.theirs.node.type === 'document' ? { markdown: text === '' ? null : text } : {}) });
      }
    }
    const { revisionId } = await writer.commit(tx, { spaceId: access.space.id, type: 'update', parents: [changeRequest.revision, spaceHead] });
    if (!(await moveHead(tx, changeRequest.id, changeRequest.revision, revisionId, { revision_merged_ancestor: spaceHead }))) {
      throw new Conflict(`Change request #${changeRequest.number} changed while its conflicts were being resolved: load it again and resolve what is left.`);
    }
    await recordContributor(tx, changeRequest.id, user.userId);
    return { result: 'update', revision: revisionId };
  });
}
