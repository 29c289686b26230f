import type { ContentRef } from './nodes.ts';
import type { RevisionTree, TreePage } from './tree.ts';
import { safeDecode } from '../url-text.ts';

/**
 * Links between pages in Markdown are relative paths, as in a folder of Markdown files: each page is a
 * file — the file it came from (`git.path`, kept by imports and Git Sync), else `<path>/README.md` for a
 * page with children and `<path>.md` for one without — and a link is relative to the folder of the file
 * it is written in ("quickstart.md", "../guides/configure.md#options"). These map such links to page
 * references when Markdown is read, and page references back to such links when it is written. Files of
 * the space are found the same way: by their path (`git.path`, else `.gitbook/assets/<name>`), or by name.
 */

/** The path of a page's Markdown file in the space's folder layout. */
export function pageFile(page: TreePage): string {
  if (page.file) return page.file;
  return page.pages.length > 0 ? `${page.path}/README.md` : `${page.path}.md`;
}

/** The folder (as segments) holding a file. */
export function folderOfFile(file: string): string[] {
  const parts = file.split('/').filter((part) => part !== '');
  return parts.slice(0, -1);
}

interface TreeFiles {
  pages: Map<string, TreePage>;
  files: Map<string, string>;
}

const indexes = new WeakMap<RevisionTree, TreeFiles>();

/** The pages and files of a tree by their path in the folder layout (lower-cased), built once per tree. */
function layoutIndex(tree: RevisionTree): TreeFiles {
  let index = indexes.get(tree);
  if (index) return index;
  index = { pages: new Map(), files: new Map() };
  for (const page of tree.byId.values()) {
    if (page.node.type !== 'document' || page.path === null) continue;
    const key = pageFile(page).toLowerCase();
    if (!index.pages.has(key)) index.pages.set(key, page);
  }
  for (const file of tree.files.values()) {
    const key = (file.git?.path ?? `.gitbook/assets/${file.name}`).toLowerCase();
    if (!index.files.has(key)) index.files.set(key, file.id);
  }
  indexes.set(tree, index);
  return index;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** A relative reference joined to a folder, as segments; undefined when it climbs out of the top. */
function joinPath(folder: string[], relative: string): string[] | undefined {
  const segments = relative.startsWith('/') ? [] : [...folder];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(segment);
  }
  return segments;
}

/**
 * Resolves a relative link written in a file of `folder` to a reference to a page (or an anchor in one), by
 * the general reading: decoded, joined to the folder, a folder link to its README, else the page by its path
 * in the tree. `linkResolverAt` gives the same answers; tests compare the two.
 */
export function resolveLinkAt(tree: RevisionTree, folder: string[], url: string): ContentRef | undefined {
  if (SCHEME.test(url) || url.startsWith('#') || url.startsWith('//')) return undefined;
  const [location, anchor] = url.split('#', 2);
  const decoded = safeDecode(location.split('?')[0]);
  const joined = joinPath(folder, decoded);
  if (!joined) return undefined;
  const index = layoutIndex(tree);
  const path = joined.join('/');
  const candidates = decoded === '' || decoded.endsWith('/') ? [`${path}/README.md`, `${path}/readme.md`] : /\.md$/i.test(decoded) ? [path] : [];
  if (path === '' && candidates.length > 0) candidates.unshift('README.md');
  let target: TreePage | undefined;
  for (const candidate of candidates) {
    target = index.pages.get(candidate.replace(/^\//, '').toLowerCase());
    if (target) break;
  }
  if (!target && candidates.length > 0) {
    // A page without a file of its own answers to its path in the tree ("guides/install.md").
    const slugs = [...joined];
    if (slugs.length > 0 && /^readme(\.md)?$/i.test(slugs[slugs.length - 1])) slugs.pop();
    else if (slugs.length > 0) slugs[slugs.length - 1] = slugs[slugs.length - 1].replace(/\.md$/i, '');
    target = tree.byPath.get(slugs.join('/'));
  }
  if (!target) return undefined;
  return anchor ? { kind: 'anchor', anchor, page: target.node.id } : { kind: 'page', page: target.node.id };
}

/**
 * A link to a Markdown file of the link's own folder, named with nothing to decode or join ("topic-2.md",
 * "setup_guide.md#options"): no scheme, no `/`, `%`, `?`, and never `.` or `..`.
 */
const PLAIN_FILE = /^[\w.-]+\.md$/i;

/**
 * Resolves a relative link written in a file of `folder` to a reference to a page (or an anchor in one).
 * A plain file name of the folder (PLAIN_FILE) that names a page's file is found with one lookup, the
 * folder's prefix made once per resolver: the general reading (`resolveLinkAt`) joins the same path and
 * looks up the same key first. Anything else, and a plain name that names no page's file, takes the
 * general reading.
 */
export function linkResolverAt(tree: RevisionTree, folder: string[]): (url: string) => ContentRef | undefined {
  // The key the general reading looks up is the joined path without a leading `/`, lower-cased.
  const prefix = folder.length > 0 ? `${folder.join('/')}/`.replace(/^\//, '') : '';
  return (url) => {
    const hash = url.indexOf('#');
    const location = hash < 0 ? url : url.slice(0, hash);
    if (PLAIN_FILE.test(location)) {
      const target = layoutIndex(tree).pages.get(`${prefix}${location}`.toLowerCase());
      if (target) {
        if (hash < 0) return { kind: 'page', page: target.node.id };
        // As `split('#', 2)` reads it: the anchor ends at a second `#`; an empty one is no anchor.
        const rest = url.slice(hash + 1);
        const end = rest.indexOf('#');
        const anchor = end < 0 ? rest : rest.slice(0, end);
        return anchor ? { kind: 'anchor', anchor, page: target.node.id } : { kind: 'page', page: target.node.id };
      }
    }
    return resolveLinkAt(tree, folder, url);
  };
}

/** Resolves a relative link written in `page`. */
export function linkResolver(tree: RevisionTree, page: TreePage): (url: string) => ContentRef | undefined {
  return linkResolverAt(tree, folderOfFile(pageFile(page)));
}

/** Resolves an image or file source written in a file of `folder` to a file of the tree, by its path. */
export function filePathResolverAt(tree: RevisionTree, folder: string[]): (src: string) => string | undefined {
  return (src) => {
    if (SCHEME.test(src) || src.startsWith('//')) return undefined;
    const joined = joinPath(folder, safeDecode(src.split(/[?#]/)[0]));
    return joined ? layoutIndex(tree).files.get(joined.join('/').toLowerCase()) : undefined;
  };
}

/** The relative path from a folder to a file. */
export function relativePath(folder: string[], file: string): string {
  const to = file.split('/');
  let shared = 0;
  while (shared < folder.length && shared < to.length - 1 && folder[shared] === to[shared]) shared++;
  return [...Array<string>(folder.length - shared).fill('..'), ...to.slice(shared)].join('/');
}

/** Writes a reference to a page of the tree as a relative link from a file of `folder`; undefined for anything else. */
export function linkWriterAt(tree: RevisionTree, folder: string[]): (ref: ContentRef) => string | undefined {
  return (ref) => {
    if ((ref.kind !== 'page' && ref.kind !== 'anchor') || ref.space || !ref.page) return undefined;
    const target = tree.byId.get(ref.page);
    if (!target?.path) return undefined;
    const relative = relativePath(folder, pageFile(target));
    return ref.kind === 'anchor' ? `${relative}#${ref.anchor}` : relative;
  };
}

/** Writes a reference to a page of the tree as a relative link from `page`. */
export function linkWriter(tree: RevisionTree, page: TreePage): (ref: ContentRef) => string | undefined {
  return linkWriterAt(tree, folderOfFile(pageFile(page)));
}
