import type { Context } from '../../context.ts';
import { NotFound } from '../../errors.ts';
import { getObjects, objectHash, putObjects, type ObjectKind } from '../objects.ts';
import { canonicalJson, type RevisionRoot } from '../revisions.ts';
import { loadTree } from '../tree.ts';
import { ChildLists, buildPages } from './build.ts';
import { NodeReader, SideDiff, settle } from './diff.ts';
import { checkPlacement, collectPages, decidePages, type ConflictDraft, type PageEntry } from './pages.ts';
import { mergeFiles, mergeReusableContents, mergeVariables } from './root-parts.ts';
import { describeLines, mergeText } from './text.ts';
import type { MergeConflict, MergeResult } from './types.ts';

export interface MergeInput {
  /** The last revision both sides share. */
  base: string;
  ours: string;
  theirs: string;
}

/** Counters of the last merge's reads and writes, for tests and measurements (not meaningful while merges overlap). */
export const mergeStats = { nodesRead: 0, bodiesRead: 0, objectsWritten: 0 };

/**
 * The three-way merge of two revisions (`ours`, `theirs`) that both come from `base`, pages matched by id.
 * Reads only what differs from the base (subtrees with equal hashes are skipped unread; only bodies that
 * both sides changed are read). Without conflicts, writes the new objects of the merged content (never
 * changes one) and answers the hash of its root object; with conflicts, writes nothing and lists them.
 * The rules are listed in ./index.ts; the kinds of conflict in ./types.ts (`MergeConflict`).
 */
export async function mergeRevisions(ctx: Pick<Context, 'db'>, input: MergeInput): Promise<MergeResult> {
  mergeStats.nodesRead = 0;
  mergeStats.bodiesRead = 0;
  mergeStats.objectsWritten = 0;
  const ids = [...new Set([input.base, input.ours, input.theirs])];
  const rows = await ctx.db.selectFrom('revisions').select(['id', 'root']).where('id', 'in', ids).execute();
  const rootOf = (id: string) => {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row) throw new NotFound(`No revision "${id}" exists.`);
    return row.root;
  };
  const hashes = { base: rootOf(input.base), ours: rootOf(input.ours), theirs: rootOf(input.theirs) };
  if (hashes.theirs === hashes.base || hashes.ours === hashes.theirs) return { result: 'merge', root: hashes.ours };
  if (hashes.ours === hashes.base) return { result: 'merge', root: hashes.theirs };

  const rootData = await getObjects(ctx, [hashes.base, hashes.ours, hashes.theirs]);
  const roots = {
    base: JSON.parse(rootData.get(hashes.base)!) as RevisionRoot,
    ours: JSON.parse(rootData.get(hashes.ours)!) as RevisionRoot,
    theirs: JSON.parse(rootData.get(hashes.theirs)!) as RevisionRoot,
  };

  // Pages: what each side changed, then a decision per page touched.
  const reader = new NodeReader();
  const diffs = { ours: new SideDiff(reader, roots.base, roots.ours), theirs: new SideDiff(reader, roots.base, roots.theirs) };
  await settle(ctx, reader, [diffs.ours, diffs.theirs]);
  mergeStats.nodesRead = reader.read;
  const entries = collectPages(diffs.ours, diffs.theirs);
  const drafts = decidePages(entries);
  const texts = await mergeBodies(ctx, entries, drafts);
  checkPlacement(entries, drafts);
  const lists = new ChildLists(entries, reader.idByHash, roots);
  lists.reorderConflicts(null, drafts);
  for (const entry of entries.values()) if (entry.present) lists.reorderConflicts(entry.id, drafts);

  // Files, variables and reusable contents of the revision.
  const files = mergeFiles(roots.base.files, roots.ours.files, roots.theirs.files);
  const variables = mergeVariables(roots.base.variables, roots.ours.variables, roots.theirs.variables);
  const reusable = mergeReusableContents(roots.base.reusableContents, roots.ours.reusableContents, roots.theirs.reusableContents);

  const others = [...files.conflicts, ...variables.conflicts, ...reusable.conflicts];
  if (drafts.length > 0 || others.length > 0) {
    return { result: 'conflicts', conflicts: [...(await describeConflicts(ctx, drafts, entries, hashes)), ...others] };
  }

  const built = buildPages(entries, lists, texts);
  const root: RevisionRoot = { pages: built.pages, files: files.files, reusableContents: reusable.reusableContents, variables: variables.variables };
  const data = rootJson(root);
  const rootHash = objectHash('root', data);
  if (rootHash === hashes.ours || rootHash === hashes.theirs) return { result: 'merge', root: rootHash };
  const objects: Array<{ kind: ObjectKind; data: string }> = [...built.objects, { kind: 'root', data }];
  await putObjects(ctx, objects);
  mergeStats.objectsWritten = objects.length;
  return { result: 'merge', root: rootHash };
}

/**
 * The canonical JSON of a root object, as `canonicalJson` writes it (keys in order), without walking the
 * list of top-level hashes value by value (it can be long).
 */
function rootJson(root: RevisionRoot): string {
  return `{"files":${canonicalJson(root.files)},"pages":${JSON.stringify(root.pages)},"reusableContents":${canonicalJson(root.reusableContents)},"variables":${canonicalJson(root.variables)}}`;
}

/**
 * Bodies that both sides changed: the three texts are read (in one query) and merged line by line; the
 * merged text of each page is returned (its body hash is set on the entry), overlapping edits are conflicts.
 */
async function mergeBodies(ctx: Pick<Context, 'db'>, entries: Map<string, PageEntry>, drafts: ConflictDraft[]): Promise<Map<string, string>> {
  const merging = [...entries.values()].filter((entry) => entry.textMerge);
  const texts = new Map<string, string>();
  if (merging.length === 0) return texts;
  const wanted = merging.flatMap((entry) => [entry.base?.node.body, entry.ours!.node.body, entry.theirs!.node.body]).filter((hash): hash is string => hash !== undefined);
  const bodies = await getObjects(ctx, wanted);
  mergeStats.bodiesRead = bodies.size;
  const text = (hash: string | undefined) => (hash === undefined ? '' : bodies.get(hash)!);
  for (const entry of merging) {
    const merged = mergeText(text(entry.base?.node.body), text(entry.ours!.node.body), text(entry.theirs!.node.body));
    if (merged.merged) {
      texts.set(entry.id, merged.text);
      entry.body = merged.text === '' ? undefined : objectHash('body', merged.text);
    } else {
      const where = merged.conflicts.map(describeLines).join(', ');
      drafts.push({ kind: 'body', pageId: entry.id, detail: `Both sides changed the same part of the page’s text (${where} of the common version).` });
    }
  }
  return texts;
}

/**
 * Names each conflicting page by its title and path: in ours when the page is there, else in theirs, else in
 * the base. Only a merge that conflicts reads whole trees (for the paths).
 */
async function describeConflicts(ctx: Pick<Context, 'db'>, drafts: ConflictDraft[], entries: Map<string, PageEntry>, roots: { base: string; ours: string; theirs: string }): Promise<MergeConflict[]> {
  const trees = { base: await loadTree(ctx, roots.base), ours: await loadTree(ctx, roots.ours), theirs: await loadTree(ctx, roots.theirs) };
  const conflicts: MergeConflict[] = [];
  const seen = new Set<string>();
  for (const draft of drafts) {
    let pageId = draft.pageId;
    if (pageId === undefined && draft.hash !== undefined) {
      const [data] = (await getObjects(ctx, [draft.hash])).values();
      pageId = (JSON.parse(data) as { id: string }).id;
    }
    if (pageId === undefined) continue;
    const key = `${draft.kind}\u0000${pageId}\u0000${draft.detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = entries.get(pageId);
    const page = trees.ours.byId.get(pageId) ?? trees.theirs.byId.get(pageId) ?? trees.base.byId.get(pageId);
    const title = page?.node.title ?? (entry?.ours ?? entry?.theirs ?? entry?.base)?.node.title ?? pageId;
    conflicts.push({ kind: draft.kind, pageId, title, ...(page?.path ? { path: page.path } : {}), detail: draft.detail });
  }
  return conflicts;
}
