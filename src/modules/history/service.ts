import type { Context } from '../../context.ts';
import { inTransaction, requireActor } from '../../context.ts';
import { spaceAccess } from '../../access/spaces.ts';
import { assertEditable } from '../../access/editable.ts';
import { semanticChanges } from '../../content/changes.ts';
import { bodyMarkdown } from '../../content/documents.ts';
import { createRevision, findRevision, type RevisionRecord } from '../../content/revisions.ts';
import { loadTree, type TreePage } from '../../content/tree.ts';
import { RevisionWriter, type PagePatch } from '../../content/writer.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { createChangeRequest, getChangeRequest } from '../change-requests/service.ts';
import type { ChangeRequestView } from '../change-requests/views.ts';
import { moveHead } from '../change-requests/lifecycle.ts';
import type { ListRevisionsQuery, RestoreRevisionBody } from './schemas.ts';

/** Changed pages named per history entry; the rest are counted. */
const PAGES_PER_ENTRY = 50;

export interface HistoryEntryView {
  revision: RevisionRecord;
  author?: { id: string; displayName: string; photoUrl: string | null };
  mergedFrom?: { id: string; number: number; subject: string | null };
  pages: Array<{ id: string; title: string; change: 'page_created' | 'page_deleted' | 'page_moved' | 'page_edited' }>;
  morePages: number;
  otherChanges: number;
}

/** A revision of the space, or NotFound naming it. */
async function spaceRevision(ctx: Context, spaceId: string, revisionId: string): Promise<RevisionRecord> {
  const revision = await findRevision(ctx, revisionId);
  if (!revision || revision.spaceId !== spaceId) throw new NotFound(`No revision "${revisionId}" exists in the space "${spaceId}": list them with GET /v1/spaces/${spaceId}/revisions.`);
  return revision;
}

/**
 * The space's history, newest first: its current revision, then each first parent (a merge's first parent
 * is the space as it was before the merge, so revisions made inside change requests are not listed; the
 * merge names its change request). Each entry says who made it, when, and which pages it changed.
 */
export async function listSpaceHistory(ctx: Context, spaceId: string, query: ListRevisionsQuery): Promise<{ items: HistoryEntryView[]; next?: string }> {
  const { space, actor } = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', actor);
  const limit = query.limit ?? 20;
  const revisions: RevisionRecord[] = [];
  let at: string | undefined = query.page ?? space.revision_id;
  while (at !== undefined && revisions.length <= limit) {
    const revision = await spaceRevision(ctx, space.id, at);
    revisions.push(revision);
    at = revision.parents[0];
  }
  const listed = revisions.slice(0, limit);
  const next = revisions.length > limit ? revisions[limit].id : undefined;

  const authorIds = [...new Set(listed.map((revision) => revision.createdBy).filter((id): id is string => id !== null))];
  const authors = authorIds.length === 0 ? [] : await ctx.db.selectFrom('users').select(['id', 'display_name', 'photo_url']).where('id', 'in', authorIds).execute();
  const merges = listed.filter((revision) => revision.type === 'merge').map((revision) => revision.id);
  const merged = merges.length === 0 ? [] : await ctx.db.selectFrom('change_requests').select(['id', 'number', 'subject', 'revision_merged']).where('space_id', '=', space.id).where('revision_merged', 'in', merges).execute();

  const items: HistoryEntryView[] = [];
  for (const revision of listed) {
    const parent = revision.parents[0] ? await findRevision(ctx, revision.parents[0]) : undefined;
    const changes = await semanticChanges(ctx, parent?.root ?? null, revision.root);
    const pages: HistoryEntryView['pages'] = [];
    let pageChanges = 0;
    for (const change of changes) {
      if (change.type !== 'page_created' && change.type !== 'page_deleted' && change.type !== 'page_moved' && change.type !== 'page_edited') continue;
      pageChanges++;
      if (pages.length < PAGES_PER_ENTRY) pages.push({ id: change.page.id, title: change.page.title, change: change.type });
    }
    const author = authors.find((row) => row.id === revision.createdBy);
    const mergedFrom = merged.find((row) => row.revision_merged === revision.id);
    items.push({
      revision,
      ...(author ? { author: { id: author.id, displayName: author.display_name, photoUrl: author.photo_url } } : {}),
      ...(mergedFrom ? { mergedFrom: { id: mergedFrom.id, number: Number(mergedFrom.number), subject: mergedFrom.subject } } : {}),
      pages,
      morePages: pageChanges - pages.length,
      otherChanges: changes.length - pageChanges,
    });
  }
  return next ? { items, next } : { items };
}

/** A page's settings without its id, type, body and children. */
function settingsOf(page: TreePage): Omit<TreePage['node'], 'id' | 'type' | 'body' | 'children'> {
  const { id: _id, type: _type, body: _body, children: _children, ...settings } = page.node;
  return settings;
}

/** Every optional setting a page can have, so that one the other version did not have is cleared. */
const CLEARED = { slug: undefined, description: undefined, emoji: undefined, icon: undefined, hidden: undefined, noIndex: undefined, noRobotsIndex: undefined, layout: undefined, cover: undefined, variables: undefined, target: undefined, href: undefined };

/** What makes a page as it is in another revision (its title, settings and text): a patch for RevisionWriter.updatePage. */
export async function pageContent(ctx: Pick<Context, 'db' | 'dialect'>, page: TreePage): Promise<PagePatch> {
  const markdown = await bodyMarkdown(ctx, page);
  return { ...CLEARED, ...settingsOf(page), ...(page.node.type === 'document' ? { markdown: markdown === '' ? null : markdown } : {}) };
}

/**
 * Restoring a revision as GitBook does it: a new change request (edit level; refused while the space is
 * locked) whose content is the revision's (the whole space), or the space's with one page brought back as
 * it was in the revision (its title, settings and text; a page deleted since comes back under its old
 * parent when that is still there, else at the top). It is reviewed and merged like any other; nothing in
 * the space changes until then. Refused when the space already has that content.
 */
export async function restoreRevision(ctx: Context, spaceId: string, revisionId: string, body: RestoreRevisionBody): Promise<ChangeRequestView> {
  requireActor(ctx);
  return inTransaction(ctx, async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.edit', actor);
    assertEditable(space);
    const revision = await spaceRevision(tx, space.id, revisionId);
    const head = await findRevision(tx, space.revision_id);
    const when = revision.createdAt.slice(0, 16).replace('T', ' ');
    let root: string;
    let subject: string;
    if (body.pageId === undefined) {
      if (head?.root === revision.root) throw new BadRequest('The space already has this revision\'s content: there is nothing to restore.');
      root = revision.root;
      subject = body.subject ?? `Restore the space as it was on ${when} UTC`;
    } else {
      const old = (await loadTree(tx, revision.root)).byId.get(body.pageId);
      if (!old) throw new NotFound(`The page "${body.pageId}" is not in the revision "${revision.id}": choose one of the pages it lists.`);
      const writer = await RevisionWriter.fromRevision(tx, space.revision_id);
      if (writer.has(old.node.id)) writer.updatePage(old.node.id, await pageContent(tx, old));
      else {
        const markdown = await bodyMarkdown(tx, old);
        const parent = old.parentId !== null && writer.has(old.parentId) ? old.parentId : null;
        writer.addPage({ ...settingsOf(old), type: old.node.type, id: old.node.id, ...(markdown ? { markdown } : {}) }, { parent });
      }
      root = await writer.write(tx);
      if (head?.root === root) throw new BadRequest(`The page "${old.node.title}" is already as it was in this revision: there is nothing to restore.`);
      subject = body.subject ?? `Restore “${old.node.title}” as it was on ${when} UTC`;
    }
    const created = await createChangeRequest(tx, space.id, { subject });
    const from = created.changeRequest.revision;
    const restored = await createRevision(tx, { spaceId: space.id, type: 'rollback', parents: [from], root });
    if (!(await moveHead(tx, created.changeRequest.id, from, restored))) throw new Error('A change request created in this transaction moved.');
    return getChangeRequest(tx, space.id, created.changeRequest.id);
  });
}
