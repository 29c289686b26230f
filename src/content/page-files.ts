import type { RevisionRoot } from './revisions.ts';

/**
 * The Markdown file of every document page of a tree, each path held by one page only. GitBook gives a
 * page the file it came from and, for a page that has none (created in the editor or through the API),
 * derives one from its slug in its parent's folder (`<slug>.md`, or `<slug>/README.md` when it has
 * children), never reusing a path another page or file holds (docs/decisions/0093-gitbook-repository-fidelity.md). Quire
 * does the same, so an export can never write one page over another's file:
 * - pages whose `git.path` is free keep it, the first in reading order winning a path two of them name
 *   (a Markdown import into a space whose landing page is README.md brings a second README.md);
 * - every other page gets `<parent folder>/<slug>.md`, with `-1`, `-2` … added while that is taken by a
 *   page, a file of the space, a reusable content or the summary.
 * Paths are compared without case, as Git checkouts on macOS and Windows do.
 */

const SUMMARY_NAMES = ['summary.md'];

/** What assigning files reads and writes of a page of a tree (tree.ts's FiledPage has this shape). */
export interface FiledPage {
  node: { type: string; git?: { path?: string } };
  slug: string | null;
  pages: FiledPage[];
  file?: string;
}

/** The folder a page's children are written in, from the page's own file. */
export function childFolder(file: string): string {
  const slash = file.lastIndexOf('/');
  const folder = slash < 0 ? '' : file.slice(0, slash);
  const name = file.slice(slash + 1);
  const bare = name.replace(/\.(md|markdown)$/i, '');
  // `guides/README.md` holds the children of `guides/`; the top README.md those of `readme/`, as GitBook writes them.
  if (bare.toLowerCase() === 'readme' && folder !== '') return folder;
  return folder ? `${folder}/${bare.toLowerCase() === 'readme' ? 'readme' : bare}` : bare.toLowerCase() === 'readme' ? 'readme' : bare;
}

/**
 * Assigns `file` on every document page of `pages` (a freshly built tree's top level), as steps: yields after
 * every `every` pages it visited, so that the build of a large tree can pause for the event loop
 * (src/content/tree.ts runs it in one go or with pauses).
 */
export function* pageFileSteps(pages: FiledPage[], root: Pick<RevisionRoot, 'files' | 'reusableContents'>, every: number): Generator<void, void> {
  const taken = new Set<string>(SUMMARY_NAMES);
  for (const file of root.files) taken.add((file.git?.path ?? `.gitbook/assets/${file.name}`).toLowerCase());
  for (const item of root.reusableContents) {
    if (typeof item !== 'object' || item === null) continue;
    const { id, git } = item as { id?: unknown; git?: { path?: unknown } };
    const path = typeof git?.path === 'string' ? git.path : typeof id === 'string' ? `.gitbook/includes/${id}.md` : undefined;
    if (path) taken.add(path.toLowerCase());
  }
  const claim = (page: FiledPage, path: string) => {
    page.file = path;
    taken.add(path.toLowerCase());
  };
  let visited = 0;
  // First the files pages came from, in reading order.
  const kept = new Set<FiledPage>();
  function* keep(list: FiledPage[]): Generator<void, void> {
    for (const page of list) {
      if (++visited % every === 0) yield;
      const path = page.node.type === 'document' ? page.node.git?.path : undefined;
      if (path && !taken.has(path.toLowerCase())) {
        claim(page, path);
        kept.add(page);
      }
      if (page.pages.length > 0) yield* keep(page.pages);
    }
  }
  yield* keep(pages);
  // Then a derived path for every other page, from its parent's folder.
  function* derive(list: FiledPage[], folder: string): Generator<void, void> {
    for (const page of list) {
      if (++visited % every === 0) yield;
      if (page.node.type === 'document' && !kept.has(page)) {
        const slug = page.slug ?? 'page';
        const prefix = folder ? `${folder}/` : '';
        const parent = page.pages.length > 0;
        let path = derivedFile(prefix, slug, parent);
        for (let n = 1; taken.has(path.toLowerCase()); n++) path = derivedFile(prefix, `${slug}-${n}`, parent);
        claim(page, path);
      }
      if (page.pages.length === 0) continue;
      const own = page.node.type === 'document' ? childFolder(page.file!) : page.node.type === 'group' ? (folder ? `${folder}/${page.slug}` : (page.slug ?? '')) : folder;
      yield* derive(page.pages, own);
    }
  }
  yield* derive(pages, '');
}

/**
 * The file derived for a page named `name` in the folder `prefix`: its README in a folder of its name when it has
 * children. (A function of the module, not a closure made per page: the TypeScript loader names every closure it
 * makes, a property definition each, which for a tree of 10,000 pages was a visible part of laying it out.)
 */
function derivedFile(prefix: string, name: string, parent: boolean): string {
  return parent ? `${prefix}${name}/README.md` : `${prefix}${name}.md`;
}
