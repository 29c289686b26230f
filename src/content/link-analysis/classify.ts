/**
 * Classifying a reference found in a page: what it points at (a page or an anchor of the revision, one of
 * its files, another space, a URL) and whether that exists in the revision. Everything here depends only
 * on the revision's content and the server's public URL, never on who asks; links to other spaces are
 * left for the caller to resolve (whether a space can be read depends on the reader).
 */
import type { ContentRef } from '../markdown/index.ts';
import type { RevisionTree, TreePage } from '../tree.ts';
import type { FoundRef, LinkRelation } from './extract.ts';
import { safeDecode } from '../../url-text.ts';

export type LinkStatus = 'ok' | 'broken' | 'in-app';

/** Where a link points, normalised so that equal targets written differently are one target. */
export type LinkTarget =
  /** A page of the revision (it may be missing), or an anchor in it. */
  | { kind: 'page'; page: string; anchor?: string }
  /** A file of the revision (it may be missing). */
  | { kind: 'file'; file: string }
  /** A space, possibly this one: whether it can be read is decided for each caller. */
  | { kind: 'space'; space: string }
  | { kind: 'url'; url: string };

export interface AnalyzedLink {
  /** Identifies the target and relation: equal keys are the same link. Lists are ordered by it. */
  key: string;
  relation: LinkRelation;
  target: LinkTarget;
  /** The status within the revision; null for links to spaces, which depend on the caller. */
  status: LinkStatus | null;
  /** The target as text: what is shown for a target that cannot be shown as an object (missing, unreadable). */
  href: string;
}

/** What classification needs to know about the revision. */
export interface ClassifyScope {
  tree: RevisionTree;
  /** The anchors (heading ids) of a page; empty for a page without a body (or without the page). */
  anchors: (pageId: string) => ReadonlySet<string>;
  /** The server's public URL, without a trailing slash: URLs under it are its own addresses. */
  publicUrl: string;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const PAGE_FORM = /^pages\/([^/?#]+)\/?(?:#(.*))?$/;
const SPACE_FORM = /^spaces\/([^/?#]+)(?:[/?#].*)?$/;
const PUBLISHED_FORM = /^\/s\/([^/?#]+)(?:[/?#].*)?$/;

function targetKey(target: LinkTarget): string {
  switch (target.kind) {
    case 'page':
      return target.anchor === undefined ? `page:${target.page}` : `page:${target.page}#${target.anchor}`;
    case 'file':
      return `file:${target.file}`;
    case 'space':
      return `space:${target.space}`;
    case 'url':
      return `url:${target.url}`;
  }
}


/** A page of the revision, or an anchor in one: ok when the page exists and, for an anchor, has that heading. */
function pageLink(scope: ClassifyScope, page: string, anchor: string | undefined, href: string): Omit<AnalyzedLink, 'key' | 'relation'> {
  const target: LinkTarget = anchor === undefined || anchor === '' ? { kind: 'page', page } : { kind: 'page', page, anchor };
  const exists = scope.tree.byId.has(page);
  const anchorFound = target.anchor === undefined || (exists && (scope.anchors(page).has(target.anchor) || scope.anchors(page).has(safeDecode(target.anchor))));
  return { target, status: exists && anchorFound ? 'ok' : 'broken', href };
}

/**
 * A URL: a relative one names something of the space that did not resolve when the Markdown was read
 * (`missing.md`, `img/gone.png`: broken) or one of the forms written for references (`pages/<id>`,
 * `spaces/<id>`); an absolute one under the public URL is one of this server's own addresses: a space's
 * published site (`/s/<id>`, a link to that space) or an address of the API (`in-app`).
 */
function urlLink(scope: ClassifyScope, url: string): Omit<AnalyzedLink, 'key' | 'relation'> {
  const external = { target: { kind: 'url', url } as LinkTarget, status: 'ok' as const, href: url };
  if (!SCHEME.test(url) && !url.startsWith('/')) {
    const page = PAGE_FORM.exec(url);
    if (page) return pageLink(scope, safeDecode(page[1]), page[2], url);
    const space = SPACE_FORM.exec(url);
    if (space) return { target: { kind: 'space', space: safeDecode(space[1]) }, status: null, href: url };
    return { ...external, status: 'broken' };
  }
  let parsed: URL;
  let base: URL;
  try {
    base = new URL(scope.publicUrl);
    parsed = new URL(url, base);
  } catch {
    return external;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== base.origin) return external;
  const prefix = base.pathname.replace(/\/+$/, '');
  if (parsed.pathname !== prefix && !parsed.pathname.startsWith(`${prefix}/`)) return external;
  const published = PUBLISHED_FORM.exec(parsed.pathname.slice(prefix.length));
  if (published) return { target: { kind: 'space', space: safeDecode(published[1]) }, status: null, href: url };
  return { ...external, status: 'in-app' };
}

/**
 * Classifies one reference found in `page`. Kinds that are not links (users, collections, reusable
 * contents, OpenAPI specifications) are left out: undefined.
 */
export function classify(scope: ClassifyScope, page: TreePage, found: FoundRef): AnalyzedLink | undefined {
  const ref: ContentRef = found.ref;
  let link: Omit<AnalyzedLink, 'key' | 'relation'>;
  switch (ref.kind) {
    case 'page':
      link = ref.space
        ? { target: { kind: 'space', space: ref.space }, status: null, href: `spaces/${ref.space}` }
        : pageLink(scope, ref.page, undefined, `pages/${ref.page}`);
      break;
    case 'anchor': {
      if (ref.space) {
        link = { target: { kind: 'space', space: ref.space }, status: null, href: `spaces/${ref.space}` };
        break;
      }
      const target = ref.page ?? page.node.id;
      link = pageLink(scope, target, ref.anchor, `pages/${target}#${ref.anchor}`);
      break;
    }
    case 'file':
      link = { target: { kind: 'file', file: ref.file }, status: scope.tree.files.has(ref.file) ? 'ok' : 'broken', href: `files/${ref.file}` };
      break;
    case 'space':
      link = { target: { kind: 'space', space: ref.space }, status: null, href: `spaces/${ref.space}` };
      break;
    case 'url':
      if (!ref.url) return undefined;
      link = urlLink(scope, ref.url);
      break;
    default:
      return undefined;
  }
  return { key: `${targetKey(link.target)} ${found.relation}`, relation: found.relation, ...link };
}
