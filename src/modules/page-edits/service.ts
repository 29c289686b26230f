import type { Context } from '../../context.ts';
import { inTransaction, requireActor } from '../../context.ts';
import { createRevision, findRevision } from '../../content/revisions.ts';
import { loadTree } from '../../content/tree.ts';
import { RevisionWriter } from '../../content/writer.ts';
import { pageIn, type PageView } from '../content/service.ts';
import { createPage, deletePage, patchPage, type EditBase } from './edits.ts';
import type { CreatePageBody, PatchPageBody } from './schemas.ts';
import { baseRevisionOf, moveTarget, openTarget, scopeOf, type EditTarget, type OpenTarget } from './target.ts';

/**
 * Page edits of a change request or of a space (live edits): each is one new revision of type "edits"
 * over the target's head, written through the content writer (only the edited page, its ancestors and a
 * new root are new objects; every other page and body is shared), in one transaction that also moves the
 * head — and, for a space, emits `space-content-changed` (search, translations and Git export follow) —
 * and records the audit entry. The edit is laid over the head before the transaction (the work that grows
 * with the page: writing its Markdown); inside it the target is checked and locked again, and the edit is
 * laid again only if the head moved meanwhile.
 */

/** A write's outcome: the new revision and the page as written (absent for a removal). */
export interface PageWrite {
  revision: string;
  page?: PageView;
}

type Edit = (ctx: Context, input: EditBase, writer: RevisionWriter) => Promise<string | undefined>;

async function prepare(ctx: Context, opened: OpenTarget, baseRevision: string | undefined, edit: Edit) {
  const headRevision = await findRevision(ctx, opened.head);
  if (!headRevision) throw new Error(`The head revision ${opened.head} of space ${opened.space.id} is missing.`);
  const head = await loadTree(ctx, headRevision.root);
  const base = await baseRevisionOf(ctx, opened.space, baseRevision);
  const input: EditBase = { head, headId: opened.head, ...(base && base.id !== opened.head ? { base: { id: base.id, tree: await loadTree(ctx, base.root) } } : {}) };
  const writer = await RevisionWriter.fromRoot(ctx, headRevision.root);
  const pageId = await edit(ctx, input, writer);
  return { head: opened.head, headRoot: headRevision.root, writer, pageId };
}

async function write(ctx: Context, target: EditTarget, baseRevision: string | undefined, edit: Edit): Promise<PageWrite> {
  const user = requireActor(ctx);
  let prepared = await prepare(ctx, await openTarget(ctx, target), baseRevision, edit);
  const { opened, revisionId } = await inTransaction(ctx, async (tx) => {
    const opened = await openTarget(tx, target, true);
    if (opened.head !== prepared.head) prepared = await prepare(tx, opened, baseRevision, edit);
    const root = await prepared.writer.write(tx);
    // An edit that changes nothing (a document saved as it was loaded) makes no revision.
    if (root === prepared.headRoot) return { opened, revisionId: opened.head };
    const revisionId = await createRevision(tx, { spaceId: opened.space.id, type: 'edits', parents: [opened.head], root });
    await moveTarget(tx, opened, revisionId, user.userId);
    return { opened, revisionId };
  });
  if (prepared.pageId === undefined) return { revision: revisionId };
  const revision = await findRevision(ctx, revisionId);
  if (!revision) throw new Error(`The revision ${revisionId} just written is missing.`);
  return { revision: revisionId, page: await pageIn(ctx, scopeOf(opened, revision), prepared.pageId, { format: 'document' }) };
}

/** POST …/content/pages: a new page (a document, a group or a link). */
export async function createPageIn(ctx: Context, target: EditTarget, body: CreatePageBody): Promise<PageWrite> {
  return write(ctx, target, undefined, async (tx, input, writer) => createPage(tx, input, writer, body));
}

/** PATCH …/content/page/{pageId}: settings, place and body of a page. */
export async function patchPageIn(ctx: Context, target: EditTarget, pageId: string, body: PatchPageBody): Promise<PageWrite> {
  return write(ctx, target, body.baseRevision, async (tx, input, writer) => {
    await patchPage(tx, input, writer, pageId, body);
    return pageId;
  });
}

/** DELETE …/content/page/{pageId}: the page and everything under it. */
export async function deletePageIn(ctx: Context, target: EditTarget, pageId: string, baseRevision?: string): Promise<PageWrite> {
  return write(ctx, target, baseRevision, async (tx, input, writer) => {
    await deletePage(tx, input, writer, pageId);
    return undefined;
  });
}
