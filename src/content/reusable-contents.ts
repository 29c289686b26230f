import type { Context } from '../context.ts';
import { getObjects } from './objects.ts';
import type { RevisionTree } from './tree.ts';

/**
 * Reusable contents: blocks of content kept once in a revision and included by pages
 * (`{% include "../.gitbook/includes/setup.md" %}`, the client's `RevisionReusableContent`). Each lives
 * in the revision's root object with its id, title, the hash of its Markdown body (an object of kind
 * 'body', like a page's) and, when it came from a folder or a repository, its file (`git.path`,
 * `.gitbook/includes/<id>.md` by default). An imported include's id is its file's name without `.md`, so
 * the include tags of every page resolve to it by name.
 */
export interface StoredReusableContent {
  id: string;
  title: string;
  /** Hash of the 'body' object holding its Markdown; absent when empty. */
  body?: string;
  git?: { oid: string; path: string };
}

function isStored(value: unknown): value is StoredReusableContent {
  return typeof value === 'object' && value !== null && typeof (value as StoredReusableContent).id === 'string' && typeof (value as StoredReusableContent).title === 'string';
}

/** The reusable contents of a revision. */
export function reusableContentsOf(tree: Pick<RevisionTree, 'root'>): StoredReusableContent[] {
  return tree.root.reusableContents.filter(isStored);
}

/** The file a reusable content is kept in, in the folder layout. */
export function reusableContentFile(content: StoredReusableContent): string {
  return content.git?.path ?? `.gitbook/includes/${content.id}.md`;
}

/**
 * Resolves the path an include names (`../../.gitbook/includes/setup.md`) to the id of one of the
 * revision's reusable contents: by its file's name, the way imports name them.
 */
export function reusableContentResolver(tree: Pick<RevisionTree, 'root'>): (path: string) => string | undefined {
  let byName: Map<string, string> | undefined;
  return (path) => {
    byName ??= new Map(reusableContentsOf(tree).map((content) => [(reusableContentFile(content).split('/').pop() ?? '').toLowerCase(), content.id]));
    return byName.get((path.split('/').pop() ?? '').toLowerCase());
  };
}

/** The Markdown of reusable contents, by id (one query for all of them). */
export async function reusableContentBodies(ctx: Pick<Context, 'db'>, contents: StoredReusableContent[]): Promise<Map<string, string>> {
  const hashes = contents.map((content) => content.body).filter((hash): hash is string => hash !== undefined);
  const objects = hashes.length > 0 ? await getObjects(ctx, hashes) : new Map<string, string>();
  return new Map(contents.map((content) => [content.id, content.body ? (objects.get(content.body) ?? '') : '']));
}
