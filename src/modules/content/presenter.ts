import type { Context } from '../../context.ts';
import { downloadExpiry, downloadUrl } from '../../content/file-urls.ts';
import { fullLayout } from '../../content/nodes.ts';
import type { StoredFile } from '../../content/revisions.ts';
import type { RevisionTree, TreePage } from '../../content/tree.ts';
import { presentChangeRequest } from '../change-requests/presenter.ts';
import type { ChangeRequestView } from '../change-requests/views.ts';
import { spaceLocation } from '../spaces/presenter.ts';
import type { PageBody } from './bodies.ts';
import type { ContentScope } from './service.ts';
import type { Revision, RevisionFile, RevisionPage } from './schemas.ts';

type Ctx = Pick<Context, 'config' | 'clock' | 'urls'>;

export interface PresentOptions {
  /** false leaves out Git metadata (`git`) of pages and files. */
  metadata?: boolean;
}

const KINDS = { document: 'sheet', group: 'group', link: 'link' } as const;

/**
 * Where a page of this content lives in the API: under `content/` for the current revision, under
 * `revisions/{id}/` for an older one, under `change-requests/{id}/content/` for a change request's head
 * (Quire has no separate editing app, so `urls.app` is an API address).
 */
function contentBase(ctx: Pick<Context, 'config'>, scope: ContentScope): string {
  const space = spaceLocation(ctx, scope.space.id);
  if (scope.changeRequest) return `${space}/change-requests/${scope.changeRequest.id}/content`;
  return scope.current ? `${space}/content` : `${space}/revisions/${scope.revision.id}`;
}

/**
 * Keys of serialized answers (src/http/immutable-json.ts): everything a presentation reads — where the
 * content is addressed, its immutable tree, the page and the options.
 */
export function pagesKey(ctx: Pick<Context, 'config'>, scope: ContentScope & { tree: RevisionTree }, options: PresentOptions): string {
  return `pages|${contentBase(ctx, scope)}|${scope.revision.root}|${options.metadata !== false}`;
}

export function pageKey(ctx: Pick<Context, 'config'>, scope: ContentScope, page: TreePage, options: PresentOptions & { format?: string; evaluated?: boolean }): string {
  return `page|${contentBase(ctx, scope)}|${scope.revision.root}|${page.node.id}|${options.format ?? 'document'}|${options.evaluated === true}|${options.metadata !== false}`;
}

/** A page and its subtree (without bodies), as the API shows it. */
export function presentPage(ctx: Ctx, scope: ContentScope, page: TreePage, options: PresentOptions, body?: PageBody | null): RevisionPage {
  return presentPageAt(contentBase(ctx, scope), page, options, body);
}

function presentPageAt(base: string, page: TreePage, options: PresentOptions, body?: PageBody | null): RevisionPage {
  const { node } = page;
  const out: RevisionPage = { id: node.id, title: node.title, kind: KINDS[node.type], type: node.type };
  if (node.emoji) out.emoji = node.emoji;
  if (node.icon) out.icon = node.icon;
  if (node.type === 'link') {
    out.target = node.target;
    const href = node.href ?? (node.target?.kind === 'url' ? node.target.url : undefined);
    if (href) out.href = href;
    if (node.hidden) out.hidden = true;
    return out;
  }
  out.slug = page.slug!;
  out.path = page.path!;
  if (node.type === 'document') {
    out.urls = { app: `${base}/page/${encodeURIComponent(node.id)}` };
    if (node.description) out.description = node.description;
    out.layout = fullLayout(node.layout);
    if (node.cover) out.cover = node.cover;
    if (node.variables && Object.keys(node.variables).length > 0) out.variables = node.variables;
    if (node.body) out.documentId = node.body;
  }
  if (node.hidden) out.hidden = true;
  if (node.noIndex) out.noIndex = true;
  if (node.noRobotsIndex) out.noRobotsIndex = true;
  if (node.git && options.metadata !== false) out.git = node.git;
  if (body?.format === 'markdown') out.markdown = body.markdown;
  if (body?.format === 'document') out.document = body.document;
  out.pages = page.pages.map((child) => presentPageAt(base, child, options));
  return out;
}

export function presentPages(ctx: Ctx, scope: ContentScope, pages: TreePage[], options: PresentOptions): RevisionPage[] {
  const base = contentBase(ctx, scope);
  return pages.map((page) => presentPageAt(base, page, options));
}

/** A file with a signed download URL for its revision. Only ever called for callers who may read the space. */
export function presentFile(ctx: Ctx, scope: ContentScope, file: StoredFile, options: PresentOptions, expires = downloadExpiry(ctx)): RevisionFile {
  const out: RevisionFile = {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: downloadUrl(ctx, { spaceId: scope.space.id, fileId: file.id, revisionId: scope.revision.id }, expires),
    size: file.size,
  };
  if (file.dimensions) out.dimensions = file.dimensions;
  if (file.git && options.metadata !== false) out.git = file.git;
  return out;
}

export function presentFiles(ctx: Ctx, scope: ContentScope, files: StoredFile[], options: PresentOptions): RevisionFile[] {
  const expires = downloadExpiry(ctx);
  return files.map((file) => presentFile(ctx, scope, file, options, expires));
}

/** A reusable content without its Git metadata (`metadata=false`). */
function withoutGit(content: unknown): unknown {
  if (!content || typeof content !== 'object') return content;
  const { git: _git, ...rest } = content as Record<string, unknown>;
  return rest;
}

export function presentRevision(ctx: Ctx, scope: ContentScope & { tree: RevisionTree; mergedFrom?: ChangeRequestView }, options: PresentOptions): Revision {
  const { revision, tree } = scope;
  const presented: Revision = {
    object: 'revision',
    id: revision.id,
    type: revision.type,
    parents: revision.parents,
    pages: presentPages(ctx, scope, tree.pages, options),
    files: presentFiles(ctx, scope, tree.root.files, options),
    reusableContents: options.metadata === false ? tree.root.reusableContents.map(withoutGit) : tree.root.reusableContents,
    variables: (tree.root.variables ?? {}) as Revision['variables'],
    createdAt: revision.createdAt,
    urls: { app: `${spaceLocation(ctx, scope.space.id)}/revisions/${revision.id}` },
  };
  if (scope.mergedFrom) presented.mergedFrom = presentChangeRequest(ctx, scope.mergedFrom);
  if (revision.git && options.metadata !== false) presented.git = revision.git;
  return presented;
}

