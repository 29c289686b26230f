import { diffComm } from 'node-diff3';
import type { Context } from '../context.ts';
import { NotFound } from '../errors.ts';
import { NodeReader, SideDiff, settle, type Placed } from './merge/diff.ts';
import { sameValue } from './merge/fields.ts';
import type { PageFields, PageNode } from './nodes.ts';
import { getObjects } from './objects.ts';
import { EMPTY_ROOT, type RevisionRoot, type StoredFile } from './revisions.ts';
import type { StoredReusableContent } from './reusable-contents.ts';

/**
 * What one revision changes from another: pages added, removed, moved and edited (with a line diff of the
 * Markdown of each edited body), files, reusable contents and variables. Computed with the merge's side
 * diff (src/content/merge/diff.ts): subtrees whose hashes agree are never read, so the cost follows the
 * size of the change, not of the space. Only the bodies of edited pages are read.
 */

export interface ChangedPage {
  id: string;
  type: PageNode['type'];
  title: string;
}

export type Attribute<T> = { before?: T; after?: T };

export type SemanticChange =
  | { type: 'page_created'; page: ChangedPage }
  | { type: 'page_deleted'; page: ChangedPage }
  | { type: 'page_moved'; page: ChangedPage; parent: { before?: ChangedPage; after?: ChangedPage } }
  | { type: 'page_edited'; page: ChangedPage; attributes: Record<string, Attribute<unknown>>; diff?: string }
  | { type: 'file_created' | 'file_deleted'; file: StoredFile }
  | { type: 'file_edited'; file: StoredFile; attributes: Record<string, Attribute<unknown>> }
  | { type: 'reusable_content_created' | 'reusable_content_deleted'; reusableContent: StoredReusableContent }
  | { type: 'reusable_content_edited'; reusableContent: StoredReusableContent; attributes: Record<string, Attribute<unknown>>; diff?: string }
  | { type: 'variables_edited'; variables: Record<string, Attribute<unknown>> };

/** Lines of context kept around each changed part of a diff. */
const CONTEXT = 3;

/**
 * A unified line diff of two texts (`-` removed, `+` added, ` ` context, `@@` where a part starts), as
 * reviewers read one; empty when the texts are equal.
 */
export function lineDiff(before: string, after: string): string {
  if (before === after) return '';
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  const rows: Array<{ mark: ' ' | '-' | '+'; line: string; oldLine: number; newLine: number }> = [];
  let oldLine = 1;
  let newLine = 1;
  for (const part of diffComm(a, b)) {
    if (part.common) for (const line of part.common) rows.push({ mark: ' ', line, oldLine: oldLine++, newLine: newLine++ });
    else {
      for (const line of part.buffer1 ?? []) rows.push({ mark: '-', line, oldLine: oldLine++, newLine });
      for (const line of part.buffer2 ?? []) rows.push({ mark: '+', line, oldLine, newLine: newLine++ });
    }
  }
  const keep = new Set<number>();
  rows.forEach((row, i) => {
    if (row.mark === ' ') return;
    for (let j = Math.max(0, i - CONTEXT); j <= Math.min(rows.length - 1, i + CONTEXT); j++) keep.add(j);
  });
  const out: string[] = [];
  let previous = -2;
  for (let i = 0; i < rows.length; i++) {
    if (!keep.has(i)) continue;
    if (i !== previous + 1) out.push(`@@ -${rows[i].oldLine} +${rows[i].newLine} @@`);
    out.push(`${rows[i].mark}${rows[i].line}`);
    previous = i;
  }
  return `${out.join('\n')}\n`;
}

const PAGE_ATTRIBUTES: Array<keyof PageFields> = ['title', 'description', 'slug', 'emoji', 'icon', 'hidden', 'layout', 'cover', 'variables', 'target', 'href'];

function changedPage(node: PageNode): ChangedPage {
  return { id: node.id, type: node.type, title: node.title };
}

function attributeChanges<T extends object>(before: T, after: T, keys: Array<keyof T>): Record<string, Attribute<unknown>> {
  const changes: Record<string, Attribute<unknown>> = {};
  for (const key of keys) {
    if (sameValue(before[key], after[key])) continue;
    const change: Attribute<unknown> = {};
    if (before[key] !== undefined) change.before = before[key];
    if (after[key] !== undefined) change.after = after[key];
    changes[String(key)] = change;
  }
  return changes;
}

/** Reads every page under `placed` (pages removed or added with their subtree), one query per level. */
async function subtree(ctx: Pick<Context, 'db'>, reader: NodeReader, tops: Placed[]): Promise<PageNode[]> {
  const found: PageNode[] = [];
  let level = tops.map((placed) => placed.node);
  while (level.length > 0) {
    found.push(...level);
    const hashes = level.flatMap((node) => node.children);
    for (const hash of hashes) reader.want(hash);
    await reader.fetch(ctx);
    level = hashes.map((hash) => reader.node(hash));
  }
  return found;
}

async function loadRoots(ctx: Pick<Context, 'db'>, hashes: string[]): Promise<Map<string, RevisionRoot>> {
  const data = await getObjects(ctx, hashes);
  return new Map([...data].map(([hash, json]) => [hash, JSON.parse(json) as RevisionRoot]));
}

/** The changes from the revision whose root is `beforeRoot` (null: from nothing, for a first revision) to the one whose root is `afterRoot`, pages first. */
export async function semanticChanges(ctx: Pick<Context, 'db'>, beforeRoot: string | null, afterRoot: string): Promise<SemanticChange[]> {
  if (beforeRoot === afterRoot) return [];
  const roots = await loadRoots(ctx, beforeRoot === null ? [afterRoot] : [beforeRoot, afterRoot]);
  const before = beforeRoot === null ? EMPTY_ROOT : roots.get(beforeRoot);
  const after = roots.get(afterRoot);
  if (!before || !after) throw new NotFound('The content of one of the revisions compared is missing.');
  const reader = new NodeReader();
  const diff = new SideDiff(reader, before, after);
  await settle(ctx, reader, [diff]);

  const changes: SemanticChange[] = [];
  const removed = [...diff.base.values()].filter((placed) => !diff.side.has(placed.id) && !(placed.parent && diff.base.has(placed.parent) && !diff.side.has(placed.parent)));
  const added = [...diff.side.values()].filter((placed) => !diff.base.has(placed.id) && !(placed.parent && diff.side.has(placed.parent) && !diff.base.has(placed.parent)));
  const addedPages = await subtree(ctx, reader, added);
  const removedPages = await subtree(ctx, reader, removed);
  const stillThere = new Set([...diff.side.keys()]);
  for (const node of addedPages) if (!diff.base.has(node.id)) changes.push({ type: 'page_created', page: changedPage(node) });
  for (const node of removedPages) if (!stillThere.has(node.id)) changes.push({ type: 'page_deleted', page: changedPage(node) });

  const edited: Array<{ before: Placed; after: Placed }> = [];
  for (const placedAfter of diff.side.values()) {
    const placedBefore = diff.base.get(placedAfter.id);
    if (!placedBefore) continue;
    if (placedBefore.parent !== placedAfter.parent) {
      const parent: { before?: ChangedPage; after?: ChangedPage } = {};
      const from = placedBefore.parent ? diff.base.get(placedBefore.parent) : undefined;
      const to = placedAfter.parent ? diff.side.get(placedAfter.parent) : undefined;
      if (from) parent.before = changedPage(from.node);
      if (to) parent.after = changedPage(to.node);
      changes.push({ type: 'page_moved', page: changedPage(placedAfter.node), parent });
    }
    if (placedBefore.hash !== placedAfter.hash) edited.push({ before: placedBefore, after: placedAfter });
  }
  const bodyHashes = edited.flatMap(({ before: b, after: a }) => (b.node.body !== a.node.body ? [b.node.body, a.node.body] : [])).filter((hash): hash is string => hash !== undefined);
  const bodies = bodyHashes.length > 0 ? await getObjects(ctx, bodyHashes) : new Map<string, string>();
  const text = (hash: string | undefined) => (hash === undefined ? '' : (bodies.get(hash) ?? ''));
  for (const { before: b, after: a } of edited) {
    const attributes = attributeChanges<PageFields>(b.node, a.node, PAGE_ATTRIBUTES);
    let markdown = '';
    if (b.node.body !== a.node.body) {
      markdown = lineDiff(text(b.node.body), text(a.node.body));
      attributes.document = { ...(b.node.body ? { before: b.node.body } : {}), ...(a.node.body ? { after: a.node.body } : {}) };
    }
    if (Object.keys(attributes).length > 0) changes.push({ type: 'page_edited', page: changedPage(a.node), attributes, ...(markdown ? { diff: markdown } : {}) });
  }

  changes.push(...fileChanges(before.files, after.files));
  changes.push(...(await reusableChanges(ctx, before.reusableContents as StoredReusableContent[], after.reusableContents as StoredReusableContent[])));
  const variables = attributeChanges<Record<string, unknown>>(before.variables, after.variables, [...new Set([...Object.keys(before.variables), ...Object.keys(after.variables)])]);
  if (Object.keys(variables).length > 0) changes.push({ type: 'variables_edited', variables });
  return changes;
}

function fileChanges(before: StoredFile[], after: StoredFile[]): SemanticChange[] {
  const changes: SemanticChange[] = [];
  const old = new Map(before.map((file) => [file.id, file]));
  const now = new Map(after.map((file) => [file.id, file]));
  for (const file of after) {
    const was = old.get(file.id);
    if (!was) changes.push({ type: 'file_created', file });
    else {
      const attributes = attributeChanges<StoredFile>(was, file, ['name', 'contentType', 'size', 'blob', 'dimensions']);
      if (attributes.blob) delete attributes.blob;
      if (!sameValue(was.blob, file.blob) && !attributes.size) attributes.size = { before: was.size, after: file.size };
      if (Object.keys(attributes).length > 0) changes.push({ type: 'file_edited', file, attributes });
    }
  }
  for (const file of before) if (!now.has(file.id)) changes.push({ type: 'file_deleted', file });
  return changes;
}

async function reusableChanges(ctx: Pick<Context, 'db'>, before: StoredReusableContent[], after: StoredReusableContent[]): Promise<SemanticChange[]> {
  const changes: SemanticChange[] = [];
  const old = new Map(before.map((content) => [content.id, content]));
  const now = new Map(after.map((content) => [content.id, content]));
  const edited = after.filter((content) => old.has(content.id) && old.get(content.id)!.body !== content.body);
  const hashes = edited.flatMap((content) => [old.get(content.id)!.body, content.body]).filter((hash): hash is string => hash !== undefined);
  const bodies = hashes.length > 0 ? await getObjects(ctx, hashes) : new Map<string, string>();
  const text = (hash: string | undefined) => (hash === undefined ? '' : (bodies.get(hash) ?? ''));
  for (const content of after) {
    const was = old.get(content.id);
    if (!was) {
      changes.push({ type: 'reusable_content_created', reusableContent: content });
      continue;
    }
    const attributes = attributeChanges<StoredReusableContent>(was, content, ['title']);
    let diff = '';
    if (was.body !== content.body) {
      attributes.document = { ...(was.body ? { before: was.body } : {}), ...(content.body ? { after: content.body } : {}) };
      diff = lineDiff(text(was.body), text(content.body));
    }
    if (Object.keys(attributes).length > 0) changes.push({ type: 'reusable_content_edited', reusableContent: content, attributes, ...(diff ? { diff } : {}) });
  }
  for (const content of before) if (!now.has(content.id)) changes.push({ type: 'reusable_content_deleted', reusableContent: content });
  return changes;
}
