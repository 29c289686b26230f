import type { Context } from '../context.ts';
import type { ContentRef, PageFields } from '../content/nodes.ts';
import type { Variables } from '../content/nodes.ts';
import { reusableContentsOf } from '../content/reusable-contents.ts';
import { pageFile } from '../content/links.ts';
import { walkPages, type RevisionTree } from '../content/tree.ts';
import { RevisionWriter } from '../content/writer.ts';
import type { ImportedContent, ImportedPage } from '../imports/types.ts';
import { pauseForEventLoop } from '../workers/pool.ts';

/** Pages laid (or remembered from the previous content) between pauses for the event loop. */
export const LAY_PAUSE_EVERY = 500;

/** Counts, for tests: the pauses layContent made for the event loop. */
export const layStats = { pauses: 0 };

/**
 * The content of a commit laid out as the space's new content, keeping identities: a page read from a
 * file takes the id of the page that came from the same file (so comments, links and change requests
 * keep pointing at it), a group the id of the group of the same title, a link the id of the same link;
 * a file the id of the file from the same path. Unchanged pages give the same nodes (objects are stored by
 * content), so a push that edits one file changes one page and its ancestors, nothing else. What Git does
 * not carry (emoji, cover, variables of the space) is kept from the previous content.
 *
 * A commit may hold tens of thousands of pages (a SUMMARY.md of 50,000 entries): the walk pauses for the
 * event loop every LAY_PAUSE_EVERY pages, so that the process keeps answering requests while it lays.
 */
export async function layContent(ctx: Pick<Context, 'ids'>, content: ImportedContent, previous: RevisionTree | null): Promise<RevisionWriter> {
  const writer = RevisionWriter.empty(ctx);
  let walked = 0;
  const pace = async () => {
    if (++walked % LAY_PAUSE_EVERY !== 0) return;
    layStats.pauses++;
    await pauseForEventLoop();
  };
  const candidates = new Map<string, string[]>();
  const keyOf = (type: string, title: string, extra: string) => `${type}\0${title.toLowerCase()}\0${extra.toLowerCase()}`;
  const remember = (key: string, id: string) => {
    const list = candidates.get(key);
    if (list) list.push(id);
    else candidates.set(key, [id]);
  };
  if (previous) {
    for (const page of walkPages(previous.pages)) {
      await pace();
      const { node } = page;
      // A page is known by the file it was exported to, its own or the one derived for it (pageFile).
      if (node.type === 'document' && page.file) remember(`file\0${page.file.toLowerCase()}`, node.id);
      else if (node.type === 'link') remember(keyOf('link', node.title, node.href ?? linkKey(node.target, previous)), node.id);
      else remember(keyOf(node.type, node.title, ''), node.id);
    }
  }
  const used = new Set<string>();
  const claim = (key: string): string | undefined => {
    const list = candidates.get(key);
    while (list && list.length > 0) {
      const id = list.shift()!;
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
    return undefined;
  };

  const links: [string, NonNullable<ImportedPage['linkTo']>][] = [];
  const byFile = new Map<string, string>();
  const add = async (page: ImportedPage, parent: string | null): Promise<void> => {
    await pace();
    const type = page.type === 'group' && parent !== null ? 'document' : page.type;
    const target: ContentRef | undefined = type === 'link' ? { kind: 'url', url: page.href ?? 'about:blank' } : undefined;
    const id = page.file ? claim(`file\0${page.file.path.toLowerCase()}`) : claim(keyOf(type, page.title, type === 'link' ? (page.href ?? (page.linkTo ? `page\0${page.linkTo.key}#${page.linkTo.anchor ?? ''}` : '')) : ''));
    const before = id ? previous?.byId.get(id)?.node : undefined;
    const kept: Partial<PageFields> = {};
    if (before?.emoji && !page.settings?.emoji) kept.emoji = before.emoji;
    if (before?.cover) kept.cover = before.cover;
    if (before?.variables) kept.variables = before.variables;
    const fields: PageFields & { markdown?: string } = {
      id: id ?? ctx.ids.next(),
      type,
      title: page.title || 'Untitled',
      ...kept,
      ...page.settings,
      ...(page.file ? { git: page.file } : {}),
      ...(target ? { target } : {}),
      ...(type === 'document' && page.markdown ? { markdown: page.markdown } : {}),
    };
    const added = writer.addPage(fields, { parent });
    if (page.linkTo) links.push([added, page.linkTo]);
    if (page.file) byFile.set(page.file.path, added);
    for (const child of page.pages) await add(child, type === 'link' ? parent : added);
  };
  for (const page of content.pages) await add(page, null);
  // A link to a page of the repository points at it once every page has its id.
  for (const [id, to] of links) {
    const target = byFile.get(to.key);
    if (target) writer.updatePage(id, { target: to.anchor ? { kind: 'anchor', anchor: to.anchor, page: target } : { kind: 'page', page: target } });
  }

  const previousFiles = new Map((previous?.root.files ?? []).filter((file) => file.git?.path).map((file) => [file.git!.path.toLowerCase(), file]));
  for (const asset of content.assets) {
    const before = asset.file ? previousFiles.get(asset.file.path.toLowerCase()) : undefined;
    if (before) previousFiles.delete(asset.file!.path.toLowerCase());
    writer.addFile({
      ...(before ? { id: before.id } : {}),
      name: asset.name,
      contentType: asset.contentType,
      blob: asset.blob,
      size: asset.size,
      ...(before?.dimensions && before.blob === asset.blob ? { dimensions: before.dimensions } : {}),
      ...(asset.file ? { git: asset.file } : {}),
    });
  }
  const previousContents = new Map(previous ? reusableContentsOf(previous).map((item) => [item.id, item]) : []);
  for (const reusable of content.reusableContents ?? []) {
    writer.putReusableContent({ id: reusable.id, title: reusable.title || previousContents.get(reusable.id)?.title || reusable.id, markdown: reusable.markdown, git: reusable.file });
  }
  if (previous) writer.setVariables((previous.root.variables ?? {}) as Variables);
  return writer;
}

/** What identifies a link page to a page of the space across syncs: the file of the page it points at (and the anchor). */
function linkKey(target: ContentRef | undefined, tree: RevisionTree): string {
  if (target?.kind === 'url') return target.url;
  if ((target?.kind === 'page' && !target.space) || (target?.kind === 'anchor' && target.page && !target.space)) {
    const page = tree.byId.get(target.page!);
    if (page?.node.type === 'document') return `page\0${pageFile(page)}#${target.kind === 'anchor' ? target.anchor : ''}`;
  }
  return '';
}
