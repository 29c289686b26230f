import type { Context } from '../../context.ts';
import { bodyMarkdown } from '../../content/documents.ts';
import { mergeText } from '../../content/merge/index.ts';
import { describeLines } from '../../content/merge/text.ts';
import { threeWay } from '../../content/merge/fields.ts';
import { fullLayout, storedLayout, type PageFields } from '../../content/nodes.ts';
import type { RevisionTree, TreePage } from '../../content/tree.ts';
import type { RevisionWriter } from '../../content/writer.ts';
import { slugify } from '../../content/markdown/index.ts';
import { BadRequest, Conflict, NotFound, nonBlank } from '../../errors.ts';
import { documentMarkdown, type BodyPlace } from './body.ts';
import { previewTree, relinkMovedPages } from './relink.ts';
import type { CreatePageBody, DocumentInput, PatchPageBody } from './schemas.ts';

/**
 * The edits themselves, laid into a writer over the target's head: create, change (settings, place, body)
 * and remove one page. With a base revision (the one the editor loaded), what changed on the page since
 * then is merged with the edit: settings field by field, the body line by line (the same three-way merge as
 * change requests); what cannot be combined is a 409 that says what to do, and nothing is written.
 */

/** The content an edit is laid over. */
export interface EditBase {
  /** The target's head: the tree the writer was made from. */
  head: RevisionTree;
  /** The revision the editor loaded, when it is not the head. */
  base?: { id: string; tree: RevisionTree };
  headId: string;
}

function checkParent(writer: RevisionWriter, parent: string | null | undefined): void {
  if (parent && !writer.has(parent)) throw new BadRequest(`The member "parent" names no page of this content: "${parent}".`);
}

function checkSlug(slug: string | null | undefined): void {
  if (slug && slugify(slug) !== slug) {
    throw new BadRequest(`The member "slug" must be lowercase letters, digits and dashes, such as "${slugify(slug) || 'my-page'}"; got ${JSON.stringify(slug)}.`);
  }
}

/** Adds the page a POST describes; returns its id. */
export async function createPage(ctx: Context, input: EditBase, writer: RevisionWriter, body: CreatePageBody): Promise<string> {
  const type = body.type ?? 'document';
  checkParent(writer, body.parent);
  checkSlug(body.slug);
  if (type !== 'document' && body.document) throw new BadRequest(`A ${type} page has no body: leave out the member "document".`);
  if (type === 'link' && !body.href && !body.target) throw new BadRequest('A link page needs the member "href" (the address it points to) or "target" (a page of this content: { "kind": "page", "page": "<id>" }).');
  if (type === 'link' && body.href && body.target) throw new BadRequest('Give a link page "href" or "target", not both.');
  if (type !== 'link' && (body.href || body.target)) throw new BadRequest(`Only link pages have an "href" or a "target"; this page is a ${type}.`);
  if (body.target?.kind === 'page' && !writer.has(body.target.page)) throw new BadRequest(`The member "target.page" names no page of this content: "${body.target.page}".`);
  if (body.emoji && body.icon) throw new BadRequest('Give a page "emoji" or "icon", not both: a page shows one or the other.');
  const fields: Omit<PageFields, 'id'> = { type, title: body.title.trim() };
  if (body.emoji) fields.emoji = body.emoji;
  if (body.icon) fields.icon = body.icon;
  if (body.description) fields.description = body.description;
  if (body.slug) fields.slug = body.slug;
  if (body.href) fields.target = { kind: 'url', url: body.href };
  if (body.target) fields.target = body.target;
  const id = writer.addPage(fields, { parent: body.parent ?? null, index: body.position });
  const after = previewTree(writer);
  if (body.document && body.document.nodes.length > 0) {
    const markdown = documentMarkdown(body.document, { tree: after, page: after.byId.get(id)!, previous: '' });
    writer.updatePage(id, { markdown });
  }
  // A new page may take a slug a sibling had (its title, placed before it): that sibling's links follow.
  await relinkMovedPages(ctx, input.head, after, writer, id);
  return id;
}

/** The settings a PATCH sets, as stored (null and "" remove a setting). */
function settingsOf(current: PageFields, body: PatchPageBody): Partial<PageFields> {
  const settings: Partial<PageFields> = {};
  if (body.title !== undefined) {
    settings.title = nonBlank(body.title, 'title', 'give the page a title.');
  }
  if (body.description !== undefined) settings.description = body.description || undefined;
  if (body.slug !== undefined) {
    checkSlug(body.slug);
    settings.slug = body.slug ?? undefined;
  }
  // A page shows an emoji or an icon (GitBook's InputPageBase takes one of them): setting one removes the other.
  if (typeof body.emoji === 'string' && typeof body.icon === 'string') throw new BadRequest('Give a page "emoji" or "icon", not both: a page shows one or the other.');
  if (body.emoji !== undefined) {
    settings.emoji = body.emoji ?? undefined;
    if (body.emoji !== null && current.icon) settings.icon = undefined;
  }
  if (body.icon !== undefined) {
    settings.icon = body.icon ?? undefined;
    if (body.icon !== null && current.emoji) settings.emoji = undefined;
  }
  if (body.layout !== undefined) {
    settings.layout = typeof body.layout === 'string' ? storedLayout(body.layout) : storedLayout({ ...fullLayout(current.layout), ...body.layout });
  }
  if (body.cover !== undefined) {
    settings.cover = body.cover === null ? undefined : { ...(body.cover.ref ? { ref: body.cover.ref } : {}), ...(body.cover.refDark ? { refDark: body.cover.refDark } : {}), yPos: body.cover.yPos ?? 0 };
  }
  if (body.href !== undefined || body.target !== undefined) {
    if (current.type !== 'link') throw new BadRequest(`Only link pages have an "href" or a "target"; this page is a ${current.type}.`);
    if (body.href !== undefined && body.target !== undefined) throw new BadRequest('Give a link page "href" or "target", not both.');
    settings.target = body.target ?? { kind: 'url', url: body.href! };
    settings.href = undefined;
  }
  if (current.type !== 'document' && (settings.description !== undefined || settings.layout !== undefined || settings.cover !== undefined)) {
    throw new BadRequest(`A ${current.type} page has no description, layout or cover.`);
  }
  return settings;
}

/** What changed on the page since the base that this edit cannot be combined with. */
function settingConflicts(base: PageFields, head: PageFields, settings: Partial<PageFields>): string[] {
  const conflicts: string[] = [];
  for (const [key, value] of Object.entries(settings)) {
    const field = key as keyof PageFields;
    if (!threeWay(base[field], head[field], value).ok) conflicts.push(`its "${key}" is now ${JSON.stringify(head[field] ?? null)}`);
  }
  return conflicts;
}

function pageConflict(title: string, input: EditBase, details: string[]): Conflict {
  return new Conflict(
    `The page "${title}" changed since the revision "${input.base!.id}" you loaded, in a way your edit cannot be merged with: ${details.join('; ')}. Nothing was saved. Load the page again (its current revision is "${input.headId}"), apply your change to it and save with that "baseRevision".`,
  );
}

/** The page an edit names in the head; a page deleted since the base is a conflict, one that never was is missing. */
function headPage(input: EditBase, pageId: string): TreePage {
  const page = input.head.byId.get(pageId);
  if (page) return page;
  const before = input.base?.tree.byId.get(pageId);
  if (before) {
    throw new Conflict(
      `The page "${before.node.title}" was deleted since the revision "${input.base!.id}" you loaded. Nothing was saved. Load the content again (its current revision is "${input.headId}"); to keep your text, create the page again with POST …/content/pages.`,
    );
  }
  throw new NotFound(`No page "${pageId}" exists in this content.`);
}

/**
 * The Markdown of the edited body: over the head's, or merged with what changed since the base. `after` is
 * the tree once the page moved or was renamed (its links are then written from its new file).
 */
async function editedBody(ctx: Context, input: EditBase, page: TreePage, document: DocumentInput, after: RevisionTree | undefined): Promise<{ markdown?: string; conflicts: string[] }> {
  const headMarkdown = await bodyMarkdown(ctx, page);
  const place = (tree: RevisionTree, at: TreePage, previous: string): BodyPlace =>
    after ? { tree: after, page: after.byId.get(page.node.id)!, previous, readFrom: { tree, page: at } } : { tree, page: at, previous };
  const basePage = input.base?.tree.byId.get(page.node.id);
  if (!input.base || !basePage || basePage.node.body === page.node.body) return { markdown: documentMarkdown(document, place(input.head, page, headMarkdown)), conflicts: [] };
  const baseMarkdown = await bodyMarkdown(ctx, basePage);
  const edited = documentMarkdown(document, place(input.base.tree, basePage, baseMarkdown));
  const merged = mergeText(baseMarkdown, headMarkdown, edited);
  if (merged.merged) return { markdown: merged.text, conflicts: [] };
  return { conflicts: [`its body was changed at ${merged.conflicts.map(describeLines).join(', ')} (counted in the page's Markdown as you loaded it), where you changed it too`] };
}

/** Lays a PATCH into the writer. */
export async function patchPage(ctx: Context, input: EditBase, writer: RevisionWriter, pageId: string, body: PatchPageBody): Promise<void> {
  const page = headPage(input, pageId);
  const current = page.node;
  const settings = settingsOf(current, body);
  if (settings.target?.kind === 'page') {
    if (!writer.has(settings.target.page)) throw new BadRequest(`The member "target.page" names no page of this content: "${settings.target.page}".`);
    if (settings.target.page === pageId) throw new BadRequest('A link page cannot point at itself.');
  }
  if (body.document !== undefined && current.type !== 'document') throw new BadRequest(`A ${current.type} page has no body: leave out the member "document".`);
  const basePage = input.base?.tree.byId.get(pageId);
  const conflicts = basePage ? settingConflicts(basePage.node, current, settings) : [];
  if (Object.keys(settings).length > 0) writer.updatePage(pageId, settings);
  // The parent it has already, without a position, is no move (it does not send the page to the end).
  const moves = (body.parent !== undefined && body.parent !== page.parentId) || body.position !== undefined;
  if (moves) {
    checkParent(writer, body.parent);
    const parent = body.parent !== undefined ? body.parent : page.parentId;
    writer.movePage(pageId, { parent, index: body.position });
  }
  // A move or a rename may move files (this page's, those under it, a sibling's): links follow them.
  const after = moves || settings.title !== undefined || 'slug' in settings ? previewTree(writer) : undefined;
  if (body.document !== undefined) {
    const edited = await editedBody(ctx, input, page, body.document, after);
    conflicts.push(...edited.conflicts);
    if (edited.markdown !== undefined) writer.updatePage(pageId, { markdown: edited.markdown || null });
  }
  if (conflicts.length > 0) throw pageConflict(current.title, input, conflicts);
  if (after) await relinkMovedPages(ctx, input.head, after, writer, body.document !== undefined ? pageId : undefined);
}

/** Removes a page and its subtree; with a base, refuses when the page (or a page under it) changed since. */
export async function deletePage(ctx: Context, input: EditBase, writer: RevisionWriter, pageId: string): Promise<void> {
  const page = headPage(input, pageId);
  const basePage = input.base?.tree.byId.get(pageId);
  if (basePage && basePage.hash !== page.hash) {
    throw pageConflict(page.node.title, input, ['it (or a page under it) was edited by someone else; deleting it would lose that edit']);
  }
  writer.removePage(pageId);
  // A sibling named like it ("install-1") takes its slug back: links to that sibling follow.
  await relinkMovedPages(ctx, input.head, previewTree(writer), writer);
}
