import assert from 'node:assert/strict';
import type { Context } from '../../src/context.ts';
import { mergeRevisions, type MergeConflict, type MergeResult } from '../../src/content/merge/index.ts';
import { getObjects } from '../../src/content/objects.ts';
import { loadTree, type RevisionTree, type TreePage } from '../../src/content/tree.ts';
import { RevisionWriter, type NewPage } from '../../src/content/writer.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';

export type Edit = (writer: RevisionWriter) => void | Promise<void>;

export const objectCount = async (ctx: Context) =>
  Number((await ctx.db.selectFrom('content_objects').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** A revision of `spaceId` made from `from` by `edit` (not made current: a branch). */
export async function branch(ctx: Context, spaceId: string, from: string, edit: Edit): Promise<string> {
  const writer = await RevisionWriter.fromRevision(ctx, from);
  await edit(writer);
  return (await writer.commit(ctx, { spaceId, type: 'edits', parents: [from] })).revisionId;
}

export interface Scenario {
  spaceId: string;
  base: string;
  ours: string;
  theirs: string;
  merge(): Promise<MergeResult>;
}

/** A space holding `pages` (the base), and two revisions made from it by `ours` and `theirs`. */
export async function scenario(ctx: Context, organizationId: string, pages: NewPage[], ours: Edit, theirs: Edit): Promise<Scenario> {
  const { spaceId, revisionId: base } = await createSpaceWithPages(ctx, organizationId, pages);
  const [o, t] = [await branch(ctx, spaceId, base, ours), await branch(ctx, spaceId, base, theirs)];
  return { spaceId, base, ours: o, theirs: t, merge: () => mergeRevisions(ctx, { base, ours: o, theirs: t }) };
}

/** The merged root of a result that must have merged. */
export function merged(result: MergeResult): string {
  if (result.result !== 'merge') assert.fail(`expected a merge, got conflicts: ${JSON.stringify(result.conflicts, null, 2)}`);
  return result.root;
}

/** The conflicts of a result that must have conflicted. */
export function conflicts(result: MergeResult): MergeConflict[] {
  if (result.result !== 'conflicts') assert.fail('expected conflicts, the merge succeeded');
  return result.conflicts;
}

/** The tree as titles: `A(B C) D` (children in parentheses, siblings in order). */
export function outline(pages: TreePage[]): string {
  return pages.map((page) => (page.pages.length > 0 ? `${page.node.title}(${outline(page.pages)})` : page.node.title)).join(' ');
}

export async function treeOf(ctx: Context, root: string): Promise<RevisionTree> {
  return loadTree(ctx, root);
}

export async function outlineOf(ctx: Context, root: string): Promise<string> {
  return outline((await loadTree(ctx, root)).pages);
}

/** The Markdown of a page in the content whose root is `root` ('' when it has no body). */
export async function bodyOf(ctx: Context, root: string, pageId: string): Promise<string> {
  const page = (await loadTree(ctx, root)).byId.get(pageId);
  assert.ok(page, `page ${pageId} is in the merged content`);
  if (!page.node.body) return '';
  return (await getObjects(ctx, [page.node.body])).get(page.node.body)!;
}

export const rootOf = async (ctx: Context, revisionId: string) =>
  (await ctx.db.selectFrom('revisions').select('root').where('id', '=', revisionId).executeTakeFirstOrThrow()).root;

/** Lines of a body, numbered: `"<prefix> line 1"` …, joined with newlines. */
export const lines = (prefix: string, count = 10) => Array.from({ length: count }, (_, i) => `${prefix} line ${i + 1}`).join('\n');

/** The same text with line `n` (1-based) replaced. */
export function replaceLine(text: string, n: number, line: string): string {
  const all = text.split('\n');
  all[n - 1] = line;
  return all.join('\n');
}

/** A small tree with stable ids: A(A1 A2) B(B1(B11)) C. */
export function smallTree(): NewPage[] {
  return [
    { id: 'a', type: 'document', title: 'A', markdown: lines('A'), pages: [{ id: 'a1', type: 'document', title: 'A1', markdown: lines('A1') }, { id: 'a2', type: 'document', title: 'A2', markdown: lines('A2') }] },
    { id: 'b', type: 'document', title: 'B', markdown: lines('B'), pages: [{ id: 'b1', type: 'document', title: 'B1', markdown: lines('B1'), pages: [{ id: 'b11', type: 'document', title: 'B11', markdown: lines('B11') }] }] },
    { id: 'c', type: 'document', title: 'C', markdown: lines('C') },
  ];
}
