import type { StoredReusableContent } from './reusable-contents.ts';
import type { Context } from '../context.ts';
import { BadRequest, NotFound } from '../errors.ts';
import { encodeNode, type PageFields, type PageNode, type PageType, type Variables } from './nodes.ts';
import { objectHash, putObjects, type ObjectKind } from './objects.ts';
import { canonicalJson, createRevision, EMPTY_ROOT, type RevisionRoot, type RevisionType, type StoredFile } from './revisions.ts';
import { pauseForEventLoop } from '../workers/pool.ts';
import { buildTreeInSteps, loadTree, MAX_PAGE_DEPTH, rememberTree, walkPages, type RevisionTree } from './tree.ts';

/** Objects stored per statement group by storeObjects, between pauses for the event loop. */
const STORE_BATCH = 1_000;

/** Top-level pages hashed by storeObjects between pauses for the event loop. */
const HASH_PAUSE_EVERY = 500;

/** A page to add: its settings, its body as Markdown, and (optionally) its children. */
export interface NewPage extends Omit<PageFields, 'id'> {
  id?: string;
  markdown?: string;
  pages?: NewPage[];
}

/** Changes to a page's settings; `markdown: null` empties the body. `id` and `type` never change. */
export type PagePatch = Partial<Omit<PageFields, 'id' | 'type'>> & { markdown?: string | null };

export interface Position {
  /** The parent page, or null (or absent) for the top level. */
  parent?: string | null;
  /** Where among the siblings; the end when absent. */
  index?: number;
}

interface Entry {
  fields: PageFields;
  /** Hash of the body object. */
  body: string | undefined;
  /** A new body, written with the next `write`. */
  markdown?: string;
  children: string[];
  parent: string | null;
  /** The node's hash while it is unchanged; null once it (or a descendant) changed. */
  hash: string | null;
}

/**
 * Builds a new revision from an existing one by edits: add, change, move and remove pages and files, set
 * variables. Only what changed is written: the changed pages, their ancestors and a new root; every other
 * node (and every body) is shared with the revision it started from. Used by templates, imports and merges.
 */
export class RevisionWriter {
  private readonly entries = new Map<string, Entry>();
  private top: string[] = [];
  private files: StoredFile[];
  private variables: Variables;
  private reusableContents: unknown[];
  /** Bodies of reusable contents added by this writer, to store with the revision. */
  private readonly reusableBodies: string[] = [];
  /** What the last `write` stored and built, while nothing changed since (every edit clears it). */
  private written: { rootHash: string; tree: RevisionTree } | null = null;

  private constructor(
    private readonly ids: Pick<Context, 'ids'>['ids'],
    tree: RevisionTree | null,
  ) {
    const root = tree?.root ?? EMPTY_ROOT;
    this.files = root.files.map((file) => ({ ...file }));
    this.variables = { ...(root.variables as Variables) };
    this.reusableContents = [...root.reusableContents];
  }

  /** Takes the pages of `tree` as they are, pausing for the event loop every HASH_PAUSE_EVERY pages. */
  private async adopt(tree: RevisionTree): Promise<void> {
    let adopted = 0;
    for (const page of walkPages(tree.pages)) {
      if (++adopted % HASH_PAUSE_EVERY === 0) await pauseForEventLoop();
      const { body, children: _children, ...fields } = page.node;
      this.entries.set(fields.id, { fields, body, children: page.pages.map((child) => child.node.id), parent: page.parentId, hash: page.hash });
    }
    this.top = tree.pages.map((page) => page.node.id);
  }

  /** A writer over the content of the revision whose root object is `rootHash`. */
  static async fromRoot(ctx: Pick<Context, 'db' | 'ids'>, rootHash: string): Promise<RevisionWriter> {
    const tree = await loadTree(ctx, rootHash);
    const writer = new RevisionWriter(ctx.ids, tree);
    await writer.adopt(tree);
    return writer;
  }

  /** A writer over a revision of the store. */
  static async fromRevision(ctx: Pick<Context, 'db' | 'ids'>, revisionId: string): Promise<RevisionWriter> {
    const row = await ctx.db.selectFrom('revisions').select('root').where('id', '=', revisionId).executeTakeFirst();
    if (!row) throw new NotFound(`No revision "${revisionId}" exists.`);
    return RevisionWriter.fromRoot(ctx, row.root);
  }

  /** A writer over empty content. */
  static empty(ctx: Pick<Context, 'ids'>): RevisionWriter {
    return new RevisionWriter(ctx.ids, null);
  }

  has(pageId: string): boolean {
    return this.entries.has(pageId);
  }

  /** The settings of a page (a copy). */
  page(pageId: string): PageFields {
    return { ...this.entry(pageId).fields };
  }

  /** The ids of the top-level pages, or of a page's children. */
  children(parentId: string | null = null): string[] {
    return [...(parentId === null ? this.top : this.entry(parentId).children)];
  }

  fileList(): StoredFile[] {
    return this.files.map((file) => ({ ...file }));
  }

  /** Adds a page (and its `pages`, recursively); returns its id. */
  addPage(input: NewPage, position: Position = {}): string {
    this.written = null;
    const { pages = [], markdown, id: givenId, ...settings } = input;
    const id = givenId ?? this.ids.next();
    if (this.entries.has(id)) throw new BadRequest(`A page with the id "${id}" already exists in this revision.`);
    const parent = position.parent ?? null;
    this.checkPlacement(settings.type, parent, id);
    if (!settings.title?.trim()) throw new BadRequest('A page needs a title that is not blank.');
    if (settings.type === 'link' && !settings.target) throw new BadRequest(`The link page "${settings.title}" needs a target.`);
    if (settings.type !== 'document' && markdown) throw new BadRequest(`The ${settings.type} page "${settings.title}" cannot have a body.`);
    const entry: Entry = { fields: { ...settings, id }, body: undefined, children: [], parent, hash: null };
    this.entries.set(id, entry);
    this.setBody(entry, markdown);
    this.insert(id, parent, position.index);
    for (const child of pages) this.addPage(child, { parent: id });
    return id;
  }

  /** Changes a page's settings or body. */
  updatePage(pageId: string, patch: PagePatch): void {
    this.written = null;
    const entry = this.entry(pageId);
    const { markdown, ...settings } = patch;
    if (settings.title !== undefined && !settings.title.trim()) throw new BadRequest('A page needs a title that is not blank.');
    entry.fields = { ...entry.fields, ...settings, id: entry.fields.id, type: entry.fields.type };
    if (markdown !== undefined) {
      if (entry.fields.type !== 'document' && markdown) throw new BadRequest(`The ${entry.fields.type} page "${entry.fields.title}" cannot have a body.`);
      this.setBody(entry, markdown ?? undefined);
    }
    this.touch(pageId);
  }

  /** Moves a page (with its subtree) under another parent, or to another place among its siblings. */
  movePage(pageId: string, position: Position): void {
    this.written = null;
    const entry = this.entry(pageId);
    const parent = position.parent ?? null;
    for (let at: string | null = parent; at !== null; at = this.entry(at).parent) {
      if (at === pageId) throw new BadRequest(`The page "${pageId}" cannot move inside itself.`);
    }
    this.checkPlacement(entry.fields.type, parent, pageId, this.height(pageId));
    this.detach(pageId);
    entry.parent = parent;
    this.insert(pageId, parent, position.index);
  }

  /** Removes a page and everything under it. */
  removePage(pageId: string): void {
    this.written = null;
    const entry = this.entry(pageId);
    this.detach(pageId);
    const drop = (id: string) => {
      for (const child of this.entry(id).children) drop(child);
      this.entries.delete(id);
    };
    drop(entry.fields.id);
  }

  /** Adds a file whose bytes are already in blob storage; returns its id. */
  addFile(file: Omit<StoredFile, 'id'> & { id?: string }): string {
    this.written = null;
    const id = file.id ?? this.ids.next();
    if (this.files.some((existing) => existing.id === id)) throw new BadRequest(`A file with the id "${id}" already exists in this revision.`);
    this.files.push({ ...file, id });
    return id;
  }

  updateFile(fileId: string, patch: Partial<Omit<StoredFile, 'id'>>): void {
    this.written = null;
    const index = this.fileIndex(fileId);
    this.files[index] = { ...this.files[index], ...patch, id: fileId };
  }

  removeFile(fileId: string): void {
    this.written = null;
    this.files.splice(this.fileIndex(fileId), 1);
  }

  /**
   * Adds a reusable content, or replaces the one with the same id: its Markdown is stored as a body object,
   * like a page's (src/content/reusable-contents.ts).
   */
  putReusableContent(content: { id: string; title: string; markdown: string; git?: { oid: string; path: string } }): void {
    this.written = null;
    const stored: StoredReusableContent = { id: content.id, title: content.title };
    if (content.markdown) {
      stored.body = objectHash('body', content.markdown);
      this.reusableBodies.push(content.markdown);
    }
    if (content.git) stored.git = content.git;
    this.reusableContents = [...this.reusableContents.filter((existing) => (existing as { id?: unknown }).id !== content.id), stored];
  }

  setVariables(variables: Variables): void {
    this.written = null;
    this.variables = { ...variables };
  }

  /** The hash of a page's node, pushing the objects of a page changed since the last write onto `pending`. */
  private hashPage(id: string, pending: Array<{ kind: ObjectKind; data: string }>, nodes: Map<string, PageNode>): string {
    const entry = this.entry(id);
    const children = entry.children.map((child) => this.hashPage(child, pending, nodes));
    const node: PageNode = { ...entry.fields, ...(entry.body ? { body: entry.body } : {}), children };
    if (entry.hash === null) {
      if (entry.markdown !== undefined) pending.push({ kind: 'body', data: entry.markdown });
      entry.markdown = undefined;
      const data = encodeNode(node);
      entry.hash = objectHash('page', data);
      pending.push({ kind: 'page', data });
    }
    nodes.set(entry.hash, node);
    return entry.hash;
  }

  /**
   * Stores the bodies and nodes of the pages changed so far, in batches with a pause for the event loop
   * between them, and before the transaction that commits the revision: a large import (tens of thousands
   * of pages) then holds its transaction, and on SQLite the one connection every request shares, only for
   * the root and the revision. Objects are shared by hash and touched when stored, so ones stored for a
   * revision that is never committed are collected after the grace, like the blobs an import stores first.
   */
  async storeObjects(ctx: Pick<Context, 'db'>): Promise<void> {
    const pending: Array<{ kind: ObjectKind; data: string }> = [];
    const nodes = new Map<string, PageNode>();
    // Hashing tens of thousands of pages takes a while too: pause between the top-level pages.
    let hashed = 0;
    for (const id of this.top) {
      this.hashPage(id, pending, nodes);
      if (++hashed % HASH_PAUSE_EVERY === 0) await pauseForEventLoop();
    }
    for (let at = 0; at < pending.length; at += STORE_BATCH) {
      await putObjects(ctx, pending.slice(at, at + STORE_BATCH));
      await pauseForEventLoop();
    }
  }

  /**
   * Writes the changed bodies and nodes and the new root object; returns the root's hash and puts the new
   * tree in the cache (it is known already, no need to read it back). Writing again without a change in
   * between stores and builds nothing: an import writes before its transaction (objects are stored by
   * content, so ones of a revision never committed are collected after the grace), and the `commit` in the
   * transaction then only records the revision, holding the database (on SQLite, the one connection every
   * request shares) for neither the objects nor the build of a tree of tens of thousands of pages. With
   * `remember: false` the tree is kept by this writer only, and enters the cache with the next `write`
   * (the commit): an import refused before its commit leaves nothing in the cache.
   */
  async write(ctx: Pick<Context, 'db'>, options: { remember?: boolean } = {}): Promise<string> {
    const remember = options.remember ?? true;
    if (this.written) {
      if (remember) rememberTree(this.written.tree);
      return this.written.rootHash;
    }
    // The pages first, in batches with pauses (nothing to do when storeObjects ran since the last change).
    await this.storeObjects(ctx);
    const pending: Array<{ kind: ObjectKind; data: string }> = [];
    const nodes = new Map<string, PageNode>();
    for (const body of this.reusableBodies) pending.push({ kind: 'body', data: body });
    const pages: string[] = [];
    for (const id of this.top) {
      pages.push(this.hashPage(id, pending, nodes));
      if (pages.length % HASH_PAUSE_EVERY === 0) await pauseForEventLoop();
    }
    const root: RevisionRoot = { pages, files: this.files, reusableContents: this.reusableContents, variables: this.variables };
    const rootData = canonicalJson(root);
    const rootHash = objectHash('root', rootData);
    pending.push({ kind: 'root', data: rootData });
    await putObjects(ctx, pending);
    const tree = await buildTreeInSteps(rootHash, JSON.parse(rootData) as RevisionRoot, nodes);
    if (remember) rememberTree(tree);
    this.written = { rootHash, tree };
    return rootHash;
  }

  /** Writes the content and records a revision of it; returns the new revision's id and root. */
  async commit(ctx: Context, revision: { spaceId: string; type: RevisionType; parents: string[] }): Promise<{ revisionId: string; root: string }> {
    const root = await this.write(ctx);
    const revisionId = await createRevision(ctx, { ...revision, root });
    return { revisionId, root };
  }

  private entry(pageId: string): Entry {
    const entry = this.entries.get(pageId);
    if (!entry) throw new NotFound(`No page "${pageId}" exists in this revision.`);
    return entry;
  }

  private fileIndex(fileId: string): number {
    const index = this.files.findIndex((file) => file.id === fileId);
    if (index < 0) throw new NotFound(`No file "${fileId}" exists in this revision.`);
    return index;
  }

  private setBody(entry: Entry, markdown: string | undefined): void {
    entry.body = markdown ? objectHash('body', markdown) : undefined;
    entry.markdown = markdown || undefined;
  }

  /** Groups live at the top level only; links have no children; a document holds documents and links. */
  private checkPlacement(type: PageType, parent: string | null, id: string, height = 1): void {
    if (parent === null) return;
    const parentType = this.entry(parent).fields.type;
    if (parentType === 'link') throw new BadRequest(`The page "${id}" cannot go under a link page.`);
    if (type === 'group') throw new BadRequest(`The group "${id}" can only be at the top level of the content.`);
    let depth = 1;
    for (let at: string | null = parent; at !== null; at = this.entry(at).parent) depth++;
    if (depth + height - 1 > MAX_PAGE_DEPTH) {
      throw new BadRequest(`The page "${id}" would be ${depth + height - 1} levels deep; pages nest at most ${MAX_PAGE_DEPTH} levels deep.`);
    }
  }

  /** How many levels a page and the pages under it span (1 for a page without children). */
  private height(pageId: string): number {
    let height = 0;
    const stack: Array<[string, number]> = [[pageId, 1]];
    while (stack.length > 0) {
      const [id, level] = stack.pop()!;
      height = Math.max(height, level);
      for (const child of this.entry(id).children) stack.push([child, level + 1]);
    }
    return height;
  }

  private insert(id: string, parent: string | null, index: number | undefined): void {
    const siblings = parent === null ? this.top : this.entry(parent).children;
    const at = index === undefined ? siblings.length : Math.max(0, Math.min(index, siblings.length));
    siblings.splice(at, 0, id);
    this.entry(id).parent = parent;
    if (parent !== null) this.touch(parent);
  }

  private detach(id: string): void {
    const parent = this.entry(id).parent;
    const siblings = parent === null ? this.top : this.entry(parent).children;
    siblings.splice(siblings.indexOf(id), 1);
    if (parent !== null) this.touch(parent);
  }

  /** Marks a page and its ancestors as changed. */
  private touch(id: string | null): void {
    for (let at = id; at !== null; at = this.entry(at).parent) {
      const entry = this.entry(at);
      if (entry.hash === null && at !== id) break;
      entry.hash = null;
    }
  }
}
