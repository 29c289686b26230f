import { walkPages, type RevisionTree, type TreePage } from '../content/tree.ts';

/**
 * The address GitBook gives a page synced from Git: the chain of its ancestors' names, each page named by
 * its file (`use-rocket.chat.md` → `use-rocket.chat`, `deploy/README.md` → `deploy`, the top README.md →
 * `readme`), a group by its slug. Quire's path is the same wherever it can be (slugs keep dots); where it
 * cannot (two files whose names give one slug, a name with spaces or capitals), the reader answers
 * GitBook's address with a 301 to Quire's, so no address a reader knew is lost.
 */

function fileSegment(path: string): string {
  const parts = path.split('/');
  const name = parts[parts.length - 1].replace(/\.(md|markdown)$/i, '');
  return name.toLowerCase() === 'readme' ? (parts[parts.length - 2] ?? 'readme') : name;
}

/** The page whose GitBook address is `path` while Quire serves it elsewhere, or undefined. */
export function pageAtGitBookPath(tree: RevisionTree, path: string): TreePage | undefined {
  const wanted = path.replace(/^\/+|\/+$/g, '').toLowerCase();
  if (!wanted || tree.byPath.has(wanted)) return undefined;
  const addresses = new Map<string, string>();
  for (const page of walkPages(tree.pages)) {
    if (page.slug === null) continue;
    const segment = page.node.type === 'document' && page.node.git?.path ? fileSegment(page.node.git.path) : page.slug;
    const parent = page.parentId ? addresses.get(page.parentId) : undefined;
    const address = parent ? `${parent}/${segment}` : segment;
    addresses.set(page.node.id, address);
    if (address.toLowerCase() === wanted && page.path !== wanted) return page;
  }
  return undefined;
}
