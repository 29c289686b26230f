import { readFileSync, statSync } from 'node:fs';
import type { Context } from '../../context.ts';
import { changeRequestAccess } from '../../access/change-requests.ts';
import { spaceAccess } from '../../access/spaces.ts';
import { parseOptionsAt, toDocument, type Document } from '../../content/documents.ts';
import { folderOfFile } from '../../content/links.ts';
import { parseMarkdown } from '../../content/markdown/index.ts';
import { getObjects } from '../../content/objects.ts';
import { reusableContentFile, reusableContentsOf, type StoredReusableContent } from '../../content/reusable-contents.ts';
import { findRevision } from '../../content/revisions.ts';
import { loadTree, walkPages, type RevisionTree } from '../../content/tree.ts';
import { NotFound } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import type { UserRow } from '../../db/rows.ts';
import { getPage } from '../content/service.ts';
import { selectPages, type PdfSelection } from '../../pdf/source.ts';
import { pdfUrl } from '../../pdf/urls.ts';
import { resolveEmbed, type Embed } from '../../embeds/resolve.ts';

const packageFile = new URL('../../../package.json', import.meta.url);
const information = {
  version: (JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string }).version,
  build: statSync(packageFile).mtime.toISOString(),
};

/** The version of Quire answering, and when it was built. */
export function apiInformation(): { version: string; build: string } {
  return information;
}

export interface ContributorView {
  user: UserRow;
  count: number;
  updatedAt: string;
}

/**
 * Who contributed to a change request: everyone recorded as a contributor (its creator, and who wrote to
 * it), with how many of its revisions they wrote (following the change request's line of revisions back
 * to where it started) and when they last did.
 */
export async function listContributors(ctx: Context, spaceId: string, changeRequestId: string): Promise<ContributorView[]> {
  const { space, actor, changeRequest } = await changeRequestAccess(ctx, spaceId, changeRequestId);
  authorize(ctx, 'space.view', actor);
  const [contributors, revisions] = await Promise.all([
    ctx.db
      .selectFrom('change_request_contributors')
      .innerJoin('users', 'users.id', 'change_request_contributors.user_id')
      .select(['users.id', 'users.email', 'users.display_name', 'users.photo_url', 'change_request_contributors.contributed_at'])
      .where('change_request_contributors.change_request_id', '=', changeRequest.id)
      .orderBy('change_request_contributors.contributed_at')
      .orderBy('users.id')
      .execute(),
    ctx.db.selectFrom('revisions').select(['id', 'parents', 'created_by', 'created_at']).where('space_id', '=', space.id).where('created_at', '>=', changeRequest.created_at).execute(),
  ]);
  const byId = new Map(revisions.map((revision) => [revision.id, revision]));
  const written = new Map<string, { count: number; last: string }>();
  for (let at: string | undefined = changeRequest.revision, steps = 0; at && at !== changeRequest.revision_initial && steps < 100_000; steps++) {
    const revision = byId.get(at);
    if (!revision) break;
    if (revision.created_by) {
      const mine = written.get(revision.created_by) ?? { count: 0, last: revision.created_at };
      mine.count++;
      if (revision.created_at > mine.last) mine.last = revision.created_at;
      written.set(revision.created_by, mine);
    }
    at = (JSON.parse(revision.parents) as string[])[0];
  }
  return contributors.map(({ contributed_at, ...user }) => {
    const mine = written.get(user.id);
    return { user, count: mine?.count ?? 0, updatedAt: mine && mine.last > contributed_at ? mine.last : contributed_at };
  });
}

async function treeOf(ctx: Context, revisionId: string): Promise<RevisionTree> {
  const revision = await findRevision(ctx, revisionId);
  if (!revision) throw new Error(`Revision ${revisionId} is missing.`);
  return loadTree(ctx, revision.root);
}

function reusableIn(tree: RevisionTree, id: string, where: string): StoredReusableContent {
  const content = reusableContentsOf(tree).find((candidate) => candidate.id === id);
  if (!content) throw new NotFound(`No reusable content "${id}" exists in ${where}.`);
  return content;
}

/** A reusable content of the space's current content, of one of its revisions, or of a change request. */
export async function getReusableContent(ctx: Context, place: { spaceId: string; revisionId?: string; changeRequestId?: string }, id: string): Promise<StoredReusableContent> {
  if (place.changeRequestId !== undefined) {
    const { actor, changeRequest } = await changeRequestAccess(ctx, place.spaceId, place.changeRequestId);
    authorize(ctx, 'space.view', actor);
    return reusableIn(await treeOf(ctx, changeRequest.revision), id, `change request #${changeRequest.number}`);
  }
  const { space, actor } = await spaceAccess(ctx, place.spaceId);
  authorize(ctx, 'space.view', actor);
  if (place.revisionId === undefined) return reusableIn(await treeOf(ctx, space.revision_id), id, `the content of space "${space.id}"`);
  const revision = await findRevision(ctx, place.revisionId);
  if (!revision || revision.spaceId !== space.id) throw new NotFound(`No revision "${place.revisionId}" exists in the space "${space.id}".`);
  return reusableIn(await loadTree(ctx, revision.root), id, `revision "${revision.id}"`);
}

/**
 * A document of a space by id (the body of a page or of a reusable content, as pages' `documentId` and
 * reusable contents' `document` name it), as a JSON document. Only documents of the space's current
 * content and of its open and draft change requests are found, so a hash of another space's content
 * answers 404.
 */
export async function getDocument(ctx: Context, spaceId: string, documentId: string): Promise<Document> {
  const { space, actor } = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', actor);
  const heads = await ctx.db.selectFrom('change_requests').select('revision').where('space_id', '=', space.id).where('status', 'in', ['draft', 'open']).execute();
  for (const revisionId of [space.revision_id, ...heads.map((row) => row.revision)]) {
    const tree = await treeOf(ctx, revisionId);
    const page = [...walkPages(tree.pages)].find((candidate) => candidate.node.body === documentId);
    const content = page ? undefined : reusableContentsOf(tree).find((candidate) => candidate.body === documentId);
    if (!page && !content) continue;
    const source = (await getObjects(ctx, [documentId])).get(documentId) ?? '';
    if (page) return toDocument(source, tree, page, false);
    return parseMarkdown(source, parseOptionsAt(tree, folderOfFile(reusableContentFile(content!)))).document;
  }
  throw new NotFound(`No document "${documentId}" exists in the content of space "${space.id}" or its change requests.`);
}

/** The body of a document page in a revision, as a JSON document (evaluated when asked); groups and links have none. */
export async function getPageDocumentInRevision(ctx: Context, spaceId: string, revisionId: string, pageId: string, evaluated: boolean): Promise<Document> {
  const view = await getPage(ctx, spaceId, pageId, { format: 'document', evaluated }, revisionId);
  const body = await view.body();
  if (!body || body.format !== 'document') throw new NotFound(`Page "${pageId}" is a ${view.page.node.type}: only document pages have a document.`);
  return body.document;
}

/**
 * The URL of a PDF of the space's current content: all its pages, a page with those under it, or one page
 * (`only`). Signed, usable without a token for one to two hours; the PDF is made when it is first followed.
 */
export async function spacePdfUrl(ctx: Context, spaceId: string, query: { only?: boolean; page?: string }): Promise<{ url: string }> {
  const { space, actor } = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', actor);
  const revision = await findRevision(ctx, space.revision_id);
  if (!revision) throw new Error(`The current revision of space ${space.id} is missing.`);
  const selection: PdfSelection = { ...(query.page !== undefined ? { pageId: query.page } : {}), only: query.only === true };
  // Checked now, so that a caller learns of an unknown page from the API rather than from a broken link.
  selectPages(await loadTree(ctx, revision.root), selection);
  return { url: pdfUrl(ctx, { spaceId: space.id, revisionId: revision.id, ...selection }) };
}

/** What an address looks like embedded in a page of a space (view level; fetched through the address guard). */
export async function embedInSpace(ctx: Context, spaceId: string, url: string): Promise<Embed> {
  const { actor } = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', actor);
  return resolveEmbed(url, { allowPrivate: ctx.config.importAllowPrivate });
}
