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
import { isBrokenMarker } from '../broken-marker.ts';

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


/**
 * A link of `relation` to `target`: one object per link, its fields in the order answers give them. Its key
 * is made one string in memory at once (a string joined from parts is kept as its parts, and each of the
 * many comparisons of sorting by key would walk them again).
 */
function linkTo(target: LinkTarget, relation: LinkRelation, status: LinkStatus | null, href: string): AnalyzedLink {
  const key = `${targetKey(target)} ${relation}`;
  key.charCodeAt(0);
  return { key, relation, target, status, href };
}

/** A link to a space, possibly this one: its status is decided for each caller. */
function spaceLink(space: string, relation: LinkRelation, href: string): AnalyzedLink {
  return linkTo({ kind: 'space', space }, relation, null, href);
}

/** A page of the revision, or an anchor in one: ok when the page exists and, for an anchor, has that heading. */
function pageLink(scope: ClassifyScope, page: string, anchor: string | undefined, relation: LinkRelation, href: string): AnalyzedLink {
  const target: LinkTarget = anchor === undefined || anchor === '' ? { kind: 'page', page } : { kind: 'page', page, anchor };
  const exists = scope.tree.byId.has(page);
  let anchorFound = target.anchor === undefined;
  if (!anchorFound && exists) {
    const anchors = scope.anchors(page);
    anchorFound = anchors.has(target.anchor!) || anchors.has(safeDecode(target.anchor!));
  }
  return linkTo(target, relation, exists && anchorFound ? 'ok' : 'broken', href);
}

/**
 * A URL: a relative one names something of the space that did not resolve when the Markdown was read
 * (`missing.md`, `img/gone.png`: broken) or one of the forms written for references (`pages/<id>`,
 * `spaces/<id>`); an absolute one under the public URL is one of this server's own addresses: a space's
 * published site (`/s/<id>`, a link to that space) or an address of the API (`in-app`).
 */
function urlLink(scope: ClassifyScope, url: string, relation: LinkRelation): AnalyzedLink {
  if (!SCHEME.test(url) && !url.startsWith('/')) {
    const page = PAGE_FORM.exec(url);
    if (page) return pageLink(scope, safeDecode(page[1]), page[2], relation, url);
    const space = SPACE_FORM.exec(url);
    if (space) return spaceLink(safeDecode(space[1]), relation, url);
    return linkTo({ kind: 'url', url }, relation, 'broken', url);
  }
  if (isBrokenMarker(url)) return linkTo({ kind: 'url', url }, relation, 'broken', url);
  const base = publicBase(scope.publicUrl);
  let parsed: URL;
  try {
    if (!base) throw new Error('no public URL');
    parsed = new URL(url, base.url);
  } catch {
    return linkTo({ kind: 'url', url }, relation, 'ok', url);
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== base.origin) return linkTo({ kind: 'url', url }, relation, 'ok', url);
  const prefix = base.prefix;
  if (parsed.pathname !== prefix && !parsed.pathname.startsWith(`${prefix}/`)) return linkTo({ kind: 'url', url }, relation, 'ok', url);
  const published = PUBLISHED_FORM.exec(parsed.pathname.slice(prefix.length));
  if (published) return spaceLink(safeDecode(published[1]), relation, url);
  return linkTo({ kind: 'url', url }, relation, 'in-app', url);
}

/** The public URL parsed once (it was parsed again for every absolute link), with its origin and path prefix. */
interface PublicBase {
  url: URL;
  origin: string;
  prefix: string;
}
let lastBase: { publicUrl: string; base: PublicBase | undefined } | undefined;
function publicBase(publicUrl: string): PublicBase | undefined {
  if (lastBase?.publicUrl === publicUrl) return lastBase.base;
  let base: PublicBase | undefined;
  try {
    const url = new URL(publicUrl);
    base = { url, origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
  } catch {
    base = undefined;
  }
  lastBase = { publicUrl, base };
  return base;
}

/**
 * Classifies one reference found in `page`. Kinds that are not links (users, collections, reusable
 * contents, OpenAPI specifications) are left out: undefined.
 */
export function classify(scope: ClassifyScope, page: TreePage, found: FoundRef): AnalyzedLink | undefined {
  const ref: ContentRef = found.ref;
  const relation = found.relation;
  switch (ref.kind) {
    case 'page':
      return ref.space ? spaceLink(ref.space, relation, `spaces/${ref.space}`) : pageLink(scope, ref.page, undefined, relation, `pages/${ref.page}`);
    case 'anchor': {
      if (ref.space) return spaceLink(ref.space, relation, `spaces/${ref.space}`);
      const target = ref.page ?? page.node.id;
      return pageLink(scope, target, ref.anchor, relation, `pages/${target}#${ref.anchor}`);
    }
    case 'file':
      return linkTo({ kind: 'file', file: ref.file }, relation, scope.tree.files.has(ref.file) ? 'ok' : 'broken', `files/${ref.file}`);
    case 'space':
      return spaceLink(ref.space, relation, `spaces/${ref.space}`);
    case 'url':
      return ref.url ? urlLink(scope, ref.url, relation) : undefined;
    default:
      return undefined;
  }
}
