import type { Context } from '../../context.ts';
import { NotFound } from '../../errors.ts';
import { paginate, type Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { findRevision, type RevisionRecord, type StoredFile } from '../../content/revisions.ts';
import { cachedTree, loadRoot, loadTree, normalizePath, type RevisionTree, type TreePage } from '../../content/tree.ts';
import { mergedChangeRequest } from '../change-requests/service.ts';
import type { ChangeRequestView } from '../change-requests/views.ts';
import { findSpaceAccess, spaceNotFound, type SpaceRow } from '../../access/spaces.ts';
import { pageBody, type PageBody } from './bodies.ts';
import type { FilesQuery, PageQuery } from './schemas.ts';
import { safeDecode } from '../../url-text.ts';
import { compareText } from '../../ordering.ts';

/** The content a read is about: the space, the revision, and whether it is the space's current one. */
export interface ContentScope {
  space: SpaceRow;
  revision: RevisionRecord;
  /** True when read through `content/…` (the current revision) rather than `revisions/{id}/…`. */
  current: boolean;
  /** Set when the content is a change request's head, read through `change-requests/{id}/content/…`. */
  changeRequest?: { id: string; number: number };
}

export interface TreeView extends ContentScope {
  tree: RevisionTree;
  /** For a revision of type "merge": the change request it merged. */
  mergedFrom?: ChangeRequestView;
}

export interface PageView extends ContentScope {
  tree: RevisionTree;
  page: TreePage;
  /** Reads the body in the format asked for: only when the answer is not already serialized. */
  body(): Promise<PageBody | null>;
}

export interface FileView extends ContentScope {
  file: StoredFile;
}

/**
 * The revision a read names: the space's current one (`revisionId` undefined) or one of its history. The
 * caller must be able to read the space; a revision of another space is reported as missing.
 */
async function readableRevision(ctx: Context, spaceId: string, revisionId?: string): Promise<ContentScope> {
  // `spaceAccess` without its own async call: every content read comes through here (issue 29, decision 0155).
  const access = await findSpaceAccess(ctx, spaceId);
  if (!access) throw spaceNotFound(spaceId);
  const { space, actor } = access;
  authorize(ctx, 'space.view', actor);
  const revision = await findRevision(ctx, revisionId ?? space.revision_id);
  if (!revision || revision.spaceId !== space.id) {
    if (revisionId === undefined) throw new Error(`The current revision of space ${space.id} is missing.`);
    throw new NotFound(`No revision "${revisionId}" exists in the space "${space.id}".`);
  }
  return { space, revision, current: revisionId === undefined };
}

/** A revision with its whole tree of pages. */
export async function getRevisionContent(ctx: Context, spaceId: string, revisionId?: string): Promise<TreeView> {
  return treeIn(ctx, await readableRevision(ctx, spaceId, revisionId));
}

/**
 * The reads below work on a scope the caller has already checked (`readableRevision` here; a change
 * request's head in src/modules/change-requests/), so every content area shares one implementation.
 */
export async function treeIn(ctx: Context, scope: ContentScope): Promise<TreeView> {
  const tree = await loadTree(ctx, scope.revision.root);
  const mergedFrom = scope.revision.type === 'merge' ? await mergedChangeRequest(ctx, scope.space, scope.revision.id) : undefined;
  // Object.assign, not a spread added to: V8 takes a slow path for `{ ...scope, more }` (µs on every read).
  return Object.assign({}, scope, mergedFrom ? { tree, mergedFrom } : { tree });
}

/** How a scope is named in messages. */
export function describeScope(scope: ContentScope): string {
  if (scope.changeRequest) return `the change request #${scope.changeRequest.number} of the space "${scope.space.id}"`;
  return scope.current ? `the space "${scope.space.id}"` : `the revision "${scope.revision.id}"`;
}

function pageNotFound(scope: ContentScope, what: string): NotFound {
  return new NotFound(`No page ${what} exists in ${describeScope(scope)}.`);
}

/** One page with its body in the format asked for (a JSON document by default, or Markdown). */
export async function getPage(ctx: Context, spaceId: string, pageId: string, query: PageQuery, revisionId?: string): Promise<PageView> {
  const scope = await readableRevision(ctx, spaceId, revisionId);
  return pageById(ctx, scope, cachedTree(scope.revision.root) ?? (await loadTree(ctx, scope.revision.root)), pageId, query);
}

export async function pageIn(ctx: Context, scope: ContentScope, pageId: string, query: PageQuery): Promise<PageView> {
  return pageById(ctx, scope, cachedTree(scope.revision.root) ?? (await loadTree(ctx, scope.revision.root)), pageId, query);
}

function pageById(ctx: Context, scope: ContentScope, tree: RevisionTree, pageId: string, query: PageQuery): PageView {
  const page = tree.byId.get(pageId);
  if (!page) throw pageNotFound(scope, `"${pageId}"`);
  return pageView(ctx, scope, tree, page, query);
}

/**
 * The view of a page found in `tree`. Its body reader is an arrow made by `bodyReader`, named by nothing: tsx and
 * the command line's bundle keep names (esbuild's keepNames), so an arrow that a property names gets its `name`
 * defined as it is made, and `bind` of a named function takes V8's slow path (it sets "bound …" through the
 * runtime): either was ~1 µs of every page read (issue 29, decision 0155). The callers take the tree in memory
 * without a promise (`cachedTree`), and read it with `loadTree` when it is not.
 */
function pageView(ctx: Context, scope: ContentScope, tree: RevisionTree, page: TreePage, query: PageQuery): PageView {
  // Object.assign, not a spread added to: V8 takes a slow path for `{ ...scope, more }` (µs on every read).
  return Object.assign({}, scope, { tree, page, body: bodyReader(ctx, tree, page, query) });
}

function bodyReader(ctx: Context, tree: RevisionTree, page: TreePage, query: PageQuery): () => Promise<PageBody | null> {
  return () => pageBody(ctx, tree, page, query);
}

/** A page by its path ("guides/install"); documents and groups have paths, links do not. */
export async function getPageByPath(ctx: Context, spaceId: string, path: string, query: PageQuery, revisionId?: string): Promise<PageView> {
  return pageByPathIn(ctx, await readableRevision(ctx, spaceId, revisionId), path, query);
}

export async function pageByPathIn(ctx: Context, scope: ContentScope, path: string, query: PageQuery): Promise<PageView> {
  const tree = cachedTree(scope.revision.root) ?? (await loadTree(ctx, scope.revision.root));
  const wanted = normalizePath(safeDecode(path));
  const page = tree.byPath.get(wanted);
  if (!page) throw pageNotFound(scope, `at the path "${wanted}"`);
  return pageView(ctx, scope, tree, page, query);
}

/** A path as sent: "a/b" or "a%2Fb" both name the page "b" under "a". */

/** The files of a revision, ordered by name then id, in pages of `limit`. */
export async function listFiles(ctx: Context, spaceId: string, query: FilesQuery, revisionId?: string): Promise<Page<StoredFile> & ContentScope> {
  return filesIn(ctx, await readableRevision(ctx, spaceId, revisionId), query);
}

export async function filesIn(ctx: Context, scope: ContentScope, query: FilesQuery): Promise<Page<StoredFile> & ContentScope> {
  const root = await loadRoot(ctx, scope.revision.root);
  const files = [...root.files].sort((a, b) => compareText(a.name, b.name) || compareText(a.id, b.id));
  const page = await paginate({
    signer: ctx.cursors,
    scope: `files:${scope.space.id}`,
    request: query,
    count: async () => files.length,
    fetch: async (cursor, take) => {
      const start = cursor ? files.findIndex((file) => compareText(file.name, String(cursor[0])) > 0 || (file.name === cursor[0] && compareText(file.id, cursor[1]) > 0)) : 0;
      return start < 0 ? [] : files.slice(start, start + take);
    },
    key: (file) => [file.name, file.id],
  });
  return { ...page, ...scope };
}

export async function getFile(ctx: Context, spaceId: string, fileId: string, revisionId?: string): Promise<FileView> {
  return fileIn(ctx, await readableRevision(ctx, spaceId, revisionId), fileId);
}

export async function fileIn(ctx: Context, scope: ContentScope, fileId: string): Promise<FileView> {
  const root = await loadRoot(ctx, scope.revision.root);
  const file = root.files.find((candidate) => candidate.id === fileId);
  if (!file) throw new NotFound(`No file "${fileId}" exists in ${describeScope(scope)}.`);
  return { ...scope, file };
}

/** Compares by code points, the same on every machine (not by locale). */
