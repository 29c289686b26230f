import type { Context } from '../context.ts';
import { bodyMarkdown, reusableContentDocuments, toDocument, type Document } from '../content/documents.ts';
import { FrontmatterError, normalizeSource } from '../content/markdown/index.ts';
import { fullLayout } from '../content/nodes.ts';
import { loadTree, type RevisionTree, type TreePage } from '../content/tree.ts';
import type { CurrentContent } from './resolve.ts';
import { languageAlternates, languageSwitcher, languageVariants } from './languages.ts';
import { coverHtml, emojiText } from './page-cover.ts';
import { breadcrumbs, documentHtml, outline, pagination, siteFrame, variantSwitcher, type Crumb } from './layout.ts';
import { settingsOf, siteHref, variantHref, type SiteView, type VariantView } from './model.ts';
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
  /** The current content of the site's spaces: the variant switcher then lands on the same page. */
  live?: Map<string, CurrentContent>;
}

/**
 * Where each other variant of the page's section leads: the page with the same path there, else its
 * nearest ancestor that exists there, else that variant's start.
 */
async function switchTargets(ctx: Pick<Context, 'db'>, target: PageTarget): Promise<Map<string, string>> {
  const { view, variant, page, live } = target;
  const targets = new Map<string, string>();
  const siblings = variant.section ? variant.section.variants : view.variants;
  if (!live || siblings.length < 2 || !page.path) return targets;
  for (const other of siblings) {
    if (other.id === variant.id) continue;
    const content = live.get(other.spaceId);
    if (!content) continue;
    const tree = await loadTree(ctx, content.root);
    const parts = page.path.split('/');
    for (let n = parts.length; n > 0; n--) {
      const found = tree.byPath.get(parts.slice(0, n).join('/'));
      const doc = found && found.node.type !== 'link' ? firstDocumentUnder(found) : undefined;
      if (doc) {
        targets.set(other.id, pageHref(view, other, tree, doc));
        break;
      }
    }
  }
  return targets;
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
    const emoji = item.emoji ? `<span class="toc-emoji" aria-hidden="true">${emojiText(item.emoji)}</span>` : '';
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
  const rendered = renderDocument(document, { ...links(view, variant, tree, includes), ...openApi });

  const open = new Set([...ancestors(tree, page).map((p) => p.node.id), page.node.id]);
  const languages = languageVariants(view, variant);
  const switcher = languages ? languageSwitcher(view, variant, languages, tree, page) : variantSwitcher(view, variant, await switchTargets(ctx, target));
  const sidebar = layout.tableOfContents
    ? `<aside class="site-sidebar">${switcher}<nav class="toc" aria-label="Pages">${navHtml(target, navigation(tree), open)}</nav></aside>`
    : switcher
      ? `<aside class="site-sidebar">${switcher}</aside>`
      : '';

  const order = readingOrder(tree);
  const at = order.indexOf(page);
  const neighbour = (p: TreePage | undefined) => (p ? { title: p.node.title, href: pageHref(view, variant, tree, p) } : null);
  const description = page.node.description?.trim() || null;
  const settings = settingsOf(view, variant);
  const href = pageHref(view, variant, tree, page);
  const mdHref = markdownHref(view, variant, page);
  const actions = settings.pageActions?.markdown === false
    ? ''
    : `<div class="page-actions"><button class="copy-page" type="button" data-markdown="${escapeAttribute(mdHref)}">Copy as Markdown</button><a class="open-markdown" href="${escapeAttribute(mdHref)}" type="text/markdown">View as Markdown</a></div>`;
  const feedback = settings.feedback?.enabled
    ? '<form class="page-feedback" data-feedback><p class="feedback-question" id="feedback-question">Was this page helpful?</p><div role="group" aria-labelledby="feedback-question"><button type="button" name="rating" value="good">Yes</button><button type="button" name="rating" value="ok">Somewhat</button><button type="button" name="rating" value="bad">No</button></div><p class="feedback-thanks" role="status"></p></form>'
    : '';
  const main = [
    `<main id="content" class="page${layout.width === 'wide' ? ' page-wide' : ''}">`,
    coverHtml(layout, page.node.cover, (fileId) => fileHref(view, variant, tree, fileId)),
    breadcrumbs(crumbs(target)),
    '<header class="page-header">',
    layout.title ? `<h1 class="page-title">${page.node.emoji ? `<span class="page-emoji" aria-hidden="true">${emojiText(page.node.emoji)}</span> ` : ''}${escapeHtml(page.node.title)}</h1>` : '',
    layout.description && description ? `<p class="page-description">${escapeHtml(description)}</p>` : '',
    actions,
    '</header>',
    `<article class="page-content">${rendered.html}</article>`,
    feedback,
    layout.pagination && settings.pagination?.enabled !== false && at >= 0 ? pagination(neighbour(order[at - 1]), neighbour(order[at + 1])) : '',
    '</main>',
  ].join('\n');
  const aside = layout.outline ? outline(rendered.outline) : '';

  const trail = crumbs(target).filter((c) => c.href);
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [...trail, { title: page.node.title, href }].map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.title, item: `${view.origin}${c.href}` })),
  };
  const data = [
    ['page', page.node.id],
    ['space', variant.spaceId],
    ['site-space', variant.id],
    ['site-section', variant.section?.id ?? ''],
    // A space at its own address has no site to count for.
    ['insights', view.siteId.startsWith('space:') ? '' : siteHref(view, '~insights')],
  ]
    .map(([k, v]) => ` data-${k}="${escapeAttribute(v)}"`)
    .join('');
  return documentHtml({
    title: `${page.node.title} · ${view.title}`,
    description,
    settings,
    bodyData: data,
    social: { title: page.node.title, siteName: view.title, image: settings.socialPreview?.url ?? null, url: `${view.origin}${href}` },
    jsonLd,
    canonical: `${view.origin}${href}`,
    ...(variant.language ? { lang: variant.language } : {}),
    ...(languages ? { alternates: languageAlternates(view, languages, tree, page) } : {}),
    noindex: pageNoIndex(view, tree, page),
    math: rendered.html.includes('class="katex'),
    diagrams: rendered.html.includes(DIAGRAM_MARK),
    bodyClass: [layout.tableOfContents ? 'with-toc' : 'without-toc', aside ? 'with-outline' : 'without-outline'].join(' '),
    body: siteFrame(view, variant, `${sidebar}\n${main}\n${aside}`),
  });
}
