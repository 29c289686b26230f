import type { Context } from '../context.ts';
import { walkPages, type RevisionTree, type TreePage } from '../content/tree.ts';
import { redirectKey } from '../imports/layout.ts';
import { pageAtGitBookPath } from './gitbook-paths.ts';

/**
 * The redirects of a space's `.gitbook.yaml`, kept with the layout of its last Git sync
 * (`git_syncs.layout`) and read by the published reader for an address that leads to no page: the old
 * address (relative to the space) → the page that came from the file it names. The reader reads them as
 * the data they are; it needs nothing of the Git engine.
 */

/** The part of a stored layout (`git_syncs.layout`, written by Git Sync) that the reader reads. */
interface StoredLayout {
  redirects?: Record<string, string>;
}

/** The page a `.gitbook.yaml` redirect of the space sends `path` to, or undefined. */
export async function gitRedirectPage(ctx: Pick<Context, 'db'>, spaceId: string, path: string, tree: RevisionTree): Promise<TreePage | undefined> {
  const row = await ctx.db.selectFrom('git_syncs').select('layout').where('space_id', '=', spaceId).executeTakeFirst();
  if (!row?.layout) return undefined;
  const moved = pageAtGitBookPath(tree, decodeURIComponent(path));
  if (moved) return moved;
  const redirects = (JSON.parse(row.layout) as StoredLayout).redirects;
  const destination = redirects?.[redirectKey(decodeURIComponent(path))];
  if (!destination) return undefined;
  const wanted = new Set([destination, /\.md$/i.test(destination) ? destination : `${destination}.md`, `${destination.replace(/\/+$/, '')}/README.md`]);
  for (const page of walkPages(tree.pages)) if (page.node.git?.path && wanted.has(page.node.git.path)) return page;
  return undefined;
}
