import type { ContentRef } from './nodes.ts';
import type { RevisionTree, TreePage } from './tree.ts';

/**
 * Links between pages in Markdown are relative paths, as in a folder of Markdown files: a page with
 * children is `<path>/README.md`, a page without is `<path>.md`, and a link is relative to the folder of the
 * page it is written in ("quickstart.md", "../guides/configure.md#options"). These map such links to page
 * references when Markdown is read, and page references back to such links when it is written.
 */

/** The folder a page's Markdown file is in: its own path when it has children, else its parent's. */
function folderOf(tree: RevisionTree, page: TreePage): string[] {
  const own = page.path?.split('/') ?? [];
  if (page.pages.length > 0) return own;
  const parent = page.parentId ? tree.byId.get(page.parentId) : undefined;
  return parent?.path ? parent.path.split('/') : [];
}

function fileOf(page: TreePage): string {
  return page.pages.length > 0 ? `${page.path}/README.md` : `${page.path}.md`;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Resolves a relative link written in a page to a reference to a page (or an anchor in one) of the tree. */
export function linkResolver(tree: RevisionTree, page: TreePage): (url: string) => ContentRef | undefined {
  const folder = folderOf(tree, page);
  return (url) => {
    if (SCHEME.test(url) || url.startsWith('/') || url.startsWith('#')) return undefined;
    const [location, anchor] = url.split('#', 2);
    let decoded: string;
    try {
      decoded = decodeURIComponent(location.split('?')[0]);
    } catch {
      return undefined;
    }
    if (!/\.md$/i.test(decoded) && !decoded.endsWith('/')) return undefined;
    const segments = [...folder];
    for (const segment of decoded.replace(/\.md$/i, '').split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') {
        if (segments.length === 0) return undefined;
        segments.pop();
      } else {
        segments.push(segment);
      }
    }
    if (segments.length > 0 && segments[segments.length - 1].toLowerCase() === 'readme') segments.pop();
    const target = tree.byPath.get(segments.join('/'));
    if (!target) return undefined;
    return anchor ? { kind: 'anchor', anchor, page: target.node.id } : { kind: 'page', page: target.node.id };
  };
}

/** Writes a reference to a page of the tree as a relative link from `page`; undefined for anything else. */
export function linkWriter(tree: RevisionTree, page: TreePage): (ref: ContentRef) => string | undefined {
  const folder = folderOf(tree, page);
  return (ref) => {
    if ((ref.kind !== 'page' && ref.kind !== 'anchor') || ref.space || !ref.page) return undefined;
    const target = tree.byId.get(ref.page);
    if (!target?.path) return undefined;
    const to = fileOf(target).split('/');
    let shared = 0;
    while (shared < folder.length && shared < to.length - 1 && folder[shared] === to[shared]) shared++;
    const relative = [...Array<string>(folder.length - shared).fill('..'), ...to.slice(shared)].join('/');
    return ref.kind === 'anchor' ? `${relative}#${ref.anchor}` : relative;
  };
}
