import type { Context } from '../../context.ts';
import { findRevision } from '../../content/revisions.ts';
import { loadTree, type RevisionTree } from '../../content/tree.ts';
import { BadRequest } from '../../errors.ts';
import type { CommentRow, CommentScope } from '../../access/comments.ts';
import type { PostCommentBody, Target } from './schemas.ts';

/**
 * What a comment is attached to, as stored in `comments.target` (JSON): the revision it was posted on, and
 * optionally a page (with its title, path and body hash at that moment), a block of it, or a table cell.
 * The body hash tells later whether the page changed since (`outdated`); title and path are kept for a page
 * that has gone away.
 */
export interface StoredTarget {
  revision: string;
  page?: string;
  title?: string;
  path?: string;
  /** The hash of the page body when the comment was posted; null for a page without a body. */
  bodyHash?: string | null;
  node?: string;
  tableCell?: { record: string; definition: string };
}

/** The content a discussion is about: the space's current revision, or the change request's head. */
export interface ScopeContent {
  revisionId: string;
  tree: RevisionTree;
}

export async function scopeContent(ctx: Context, scope: CommentScope): Promise<ScopeContent> {
  const revisionId = scope.changeRequest ? scope.changeRequest.revision : scope.space.revision_id;
  const revision = await findRevision(ctx, revisionId);
  if (!revision) throw new Error(`The revision ${revisionId} of ${scope.changeRequest ? 'a change request' : 'a space'} is missing.`);
  return { revisionId, tree: await loadTree(ctx, revision.root) };
}

/** The target of a new comment; 400 naming the member when the page is not in the content, or a block or cell has no page. */
export function newTarget(content: ScopeContent, input: Pick<PostCommentBody, 'page' | 'node' | 'tableCell'>, where: string): StoredTarget {
  const target: StoredTarget = { revision: content.revisionId };
  if (input.page === undefined) {
    if (input.node !== undefined) throw new BadRequest('The body member "node" needs "page": name the page that holds the block.');
    if (input.tableCell !== undefined) throw new BadRequest('The body member "tableCell" needs "page": name the page that holds the table.');
    return target;
  }
  const page = content.tree.byId.get(input.page);
  if (!page) throw new BadRequest(`The body member "page" names no page of ${where}: "${input.page}".`);
  target.page = page.node.id;
  target.title = page.node.title;
  target.path = page.path ?? '';
  target.bodyHash = page.node.body ?? null;
  if (input.node !== undefined) target.node = input.node;
  if (input.tableCell !== undefined) target.tableCell = { record: input.tableCell.record, definition: input.tableCell.definition };
  return target;
}

export function readTarget(comment: CommentRow, fallbackRevision: string): StoredTarget {
  return comment.target ? (JSON.parse(comment.target) as StoredTarget) : { revision: fallbackRevision };
}

/**
 * The `target` of a comment as the API shows it. The page is described as it is now in `content` (its
 * title and path); it is `outdated` when its body changed since the comment was posted, or when it is no
 * longer there (then with the title and path it had).
 */
export function presentTarget(scope: CommentScope, stored: StoredTarget, content: ScopeContent | null): Target {
  const target: Target = { space: scope.space.id, revision: stored.revision };
  if (scope.changeRequest) target.changeRequest = scope.changeRequest.id;
  if (stored.page !== undefined) {
    const page = content?.tree.byId.get(stored.page);
    if (page) {
      target.page = { id: page.node.id, title: page.node.title || 'Untitled', path: page.path ?? '', outdated: (page.node.body ?? null) !== (stored.bodyHash ?? null) };
      if (page.node.emoji) target.page.emoji = page.node.emoji;
      if (page.node.icon) target.page.icon = page.node.icon;
    } else {
      target.page = { id: stored.page, title: stored.title || 'Untitled', path: stored.path ?? '', outdated: true };
    }
  }
  if (stored.node !== undefined) target.node = { id: stored.node };
  if (stored.tableCell) target.tableCell = stored.tableCell;
  return target;
}

/** The targets of a set of comments, reading the content only when one of them is about a page. */
export async function presentTargets(ctx: Context, scope: CommentScope, comments: CommentRow[]): Promise<Map<string, Target>> {
  const fallback = scope.changeRequest ? scope.changeRequest.revision : scope.space.revision_id;
  const stored = comments.map((comment) => [comment.id, readTarget(comment, fallback)] as const);
  const content = stored.some(([, target]) => target.page !== undefined) ? await scopeContent(ctx, scope) : null;
  return new Map(stored.map(([id, target]) => [id, presentTarget(scope, target, content)]));
}
