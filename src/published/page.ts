import type { Context } from '../context.ts';
import { bodyMarkdown, reusableContentDocuments, toDocument, type Document } from '../content/documents.ts';
import { FrontmatterError, normalizeSource } from '../content/markdown/index.ts';
import { fullLayout } from '../content/nodes.ts';
import type { RevisionTree, TreePage } from '../content/tree.ts';
import { breadcrumbs, documentHtml, outline, pagination, siteFrame, variantSwitcher, type Crumb } from './layout.ts';
import { siteHref, variantHref, type SiteView, type VariantView } from './model.ts';
import { ancestors, firstDocumentUnder, firstPage, isHidden, navigation, readingOrder, type NavItem } from './navigation.ts';
import { escapeAttribute, escapeHtml, renderDocument, type RenderLinks } from './render/index.ts';
import { openApiHook } from './openapi.ts';

/** What marks a page with Mermaid diagrams (render/code.ts). */
export const DIAGRAM_MARK = '<pre class="mermaid">';

/** One page of one variant, as the reader serves it. */
export interface PageTarget {
  view: SiteView;
  variant: VariantView;
  tree: RevisionTree;
  page: TreePage;
}

/** The address of a page: the variant's root for its first page, else the page's path below the root. */
export function pageHref(view: SiteView, variant: VariantView, tree: RevisionTree, page: TreePage): string {
  return firstPage(tree) === page ? variantHref(view, variant) : variantHref(view, variant, page.path);
}

/** The page's Markdown address: always its own path (the first page's root address has no name to add `.md` to). */
export function markdownHref(view: SiteView, variant: VariantView, page: TreePage): string {
  return `${variantHref(view, variant, page.path)}.md`;
}

/** Whether search engines should leave a page out: any site but a public one, and pages that ask. */
export function pageNoIndex(view: SiteView, tree: RevisionTree, page: TreePage): boolean {
  return view.visibility !== 'public' || page.node.noRobotsIndex === true || page.node.noIndex === true || isHidden(tree, page);
}

export function fileHref(view: SiteView, variant: VariantView, tree: RevisionTree, fileId: string): string | null {
  const file = tree.files.get(fileId);
  return file ? siteHref(view, '~files', encodeURIComponent(variant.id), encodeURIComponent(file.id), encodeURIComponent(file.name)) : null;
}

function links(view: SiteView, variant: VariantView, tree: RevisionTree, includes: Map<string, Document>): RenderLinks {
  return {
    fileUrl: (fileId) => fileHref(view, variant, tree, fileId),
    pageTitle: (pageId) => {
      const found = tree.byId.get(pageId);
      return found ? found.node.title : null;
    },
    reusableContent: (id) => includes.get(id) ?? null,
    pageUrl: (pageId, anchor) => {
      const found = tree.byId.get(pageId);
      const target = found && found.node.type !== 'link' ? firstDocumentUnder(found) : undefined;
      if (!target) return null;
      const href = pageHref(view, variant, tree, target);
      return anchor ? `${href}#${encodeURIComponent(anchor)}` : href;
    },
  };
}

/**
 * The page's document for a reader with these claims: expressions evaluated, `if` blocks kept only when
 * they hold. Front matter that cannot be read is set aside rather than failing the page.
 */
export function pageDocument(source: string, tree: RevisionTree, page: TreePage, claims: Record<string, unknown> = {}): Document {
  try {
    return toDocument(source, tree, page, true, claims);
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    return toDocument(normalizeSource(source).replace(/^---\n[\s\S]*?\n---(?:\n|$)/, ''), tree, page, true, claims);
  }
}

function navHtml(target: PageTarget, items: NavItem[], open: Set<string>): string {
  const { view, variant, tree, page } = target;
  const entries = items.map((item) => {
    const children = item.children.length ? navHtml(target, item.children, open) : '';
    if (item.kind === 'group') return `<li class="toc-group"><span class="toc-heading">${escapeHtml(item.title)}</span>${children}</li>`;
    const emoji = item.emoji ? `<span class="toc-emoji" aria-hidden="true">${escapeHtml(item.emoji)}</span>` : '';
    let anchor: string;
    if (item.kind === 'link') {
      const href = item.external ?? (item.path !== null ? variantHref(view, variant, item.path) : null);
      anchor = href
        ? `<a href="${escapeAttribute(href)}"${item.external ? ' class="toc-external" rel="noopener"' : ''}>${emoji}${escapeHtml(item.title)}</a>`
        : `<span>${emoji}${escapeHtml(item.title)}</span>`;
    } else {
      const node = tree.byId.get(item.id)!;
      const here = item.id === page.node.id;
      anchor = `<a href="${escapeAttribute(pageHref(view, variant, tree, node))}"${here ? ' aria-current="page" class="current"' : ''}>${emoji}${escapeHtml(item.title)}</a>`;
    }
    if (!children) return `<li>${anchor}</li>`;
    return `<li><details${open.has(item.id) ? ' open' : ''}><summary>${anchor}</summary>${children}</details></li>`;
  });
  return `<ul>${entries.join('')}</ul>`;
}

function crumbs(target: PageTarget): Crumb[] {
  const { view, variant, tree, page } = target;
  const list: Crumb[] = [];
  if (variant.section && view.sections.length > 1) list.push({ title: variant.section.title, href: variantHref(view, variant.section.variants.find((v) => v.isDefault) ?? variant) });
  const siblings = variant.section ? variant.section.variants : view.variants;
  if (siblings.length > 1) list.push({ title: variant.title, href: variantHref(view, variant) });
  for (const above of ancestors(tree, page)) {
    const to = above.node.type === 'document' ? above : null;
    list.push({ title: above.node.title, href: to ? pageHref(view, variant, tree, to) : null });
  }
  return list;
}

/** The whole HTML of a page. */
export async function renderPage(ctx: Pick<Context, 'db' | 'dialect' | 'blobs'>, target: PageTarget, claims: Record<string, unknown> = {}): Promise<string> {
  const { view, variant, tree, page } = target;
  const layout = fullLayout(page.node.layout);
  const source = await bodyMarkdown(ctx, page);
  const document = pageDocument(source, tree, page, claims);
  const includes = await reusableContentDocuments(ctx, tree, page, document, claims);
  const openApi = await openApiHook(ctx, variant.spaceId, [document, ...includes.values()], tree.files);
  const rendered = renderDocument(document, { ...links(view, variant, tree, includes), openApi });

  const open = new Set([...ancestors(tree, page).map((p) => p.node.id), page.node.id]);
  const sidebar = layout.tableOfContents
    ? `<aside class="site-sidebar">${variantSwitcher(view, variant)}<nav class="toc" aria-label="Pages">${navHtml(target, navigation(tree), open)}</nav></aside>`
    : variantSwitcher(view, variant)
      ? `<aside class="site-sidebar">${variantSwitcher(view, variant)}</aside>`
      : '';

  const order = readingOrder(tree);
  const at = order.indexOf(page);
  const neighbour = (p: TreePage | undefined) => (p ? { title: p.node.title, href: pageHref(view, variant, tree, p) } : null);
  const description = page.node.description?.trim() || null;
  const main = [
    `<main id="content" class="page${layout.width === 'wide' ? ' page-wide' : ''}">`,
    breadcrumbs(crumbs(target)),
    '<header class="page-header">',
    layout.title ? `<h1 class="page-title">${page.node.emoji ? `<span class="page-emoji" aria-hidden="true">${escapeHtml(page.node.emoji)}</span> ` : ''}${escapeHtml(page.node.title)}</h1>` : '',
    layout.description && description ? `<p class="page-description">${escapeHtml(description)}</p>` : '',
    '</header>',
    `<article class="page-content">${rendered.html}</article>`,
    layout.pagination && at >= 0 ? pagination(neighbour(order[at - 1]), neighbour(order[at + 1])) : '',
    '</main>',
  ].join('\n');
  const aside = layout.outline ? outline(rendered.outline) : '';

  return documentHtml({
    title: `${page.node.title} · ${view.title}`,
    description,
    canonical: `${view.origin}${pageHref(view, variant, tree, page)}`,
    noindex: pageNoIndex(view, tree, page),
    math: rendered.html.includes('class="katex'),
    diagrams: rendered.html.includes(DIAGRAM_MARK),
    bodyClass: [layout.tableOfContents ? 'with-toc' : 'without-toc', aside ? 'with-outline' : 'without-outline'].join(' '),
    body: siteFrame(view, variant, `${sidebar}\n${main}\n${aside}`),
  });
}
