import type { Context } from '../context.ts';
import { bodyMarkdown, toMarkdown } from '../content/documents.ts';
import { FrontmatterError } from '../content/markdown/index.ts';
import { loadTree, type RevisionTree, type TreePage } from '../content/tree.ts';
import { siteHref, type SiteView, type VariantView } from './model.ts';
import { readingOrder } from './navigation.ts';
import { markdownHref, pageHref } from './page.ts';
import { escapeHtml } from './render/index.ts';
import type { CurrentContent } from './resolve.ts';

/**
 * What the reader tells robots and language models: robots.txt, sitemap.xml (public sites), llms.txt, and
 * every page as Markdown at its address plus `.md`. Lists hold only the pages this reader can see, listed
 * (not hidden) and indexable; sections and variants hidden by conditions are not in the view at all.
 */

type Db = Pick<Context, 'db' | 'dialect'>;

export function robotsTxt(view: SiteView): string {
  if (view.visibility !== 'public') return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: /\n\nSitemap: ${view.origin}${siteHref(view, 'sitemap.xml')}\n`;
}

/** The listed, indexable pages of each variant, with its tree. */
async function listed(ctx: Db, view: SiteView, live: Map<string, CurrentContent>): Promise<Array<{ variant: VariantView; tree: RevisionTree; pages: TreePage[] }>> {
  const out = [];
  for (const variant of view.variants) {
    const content = live.get(variant.spaceId);
    if (!content) continue;
    const tree = await loadTree(ctx, content.root);
    const pages = readingOrder(tree).filter((p) => !p.node.noIndex && !p.node.noRobotsIndex);
    out.push({ variant, tree, pages });
  }
  return out;
}

export async function sitemapXml(ctx: Db, view: SiteView, live: Map<string, CurrentContent>): Promise<string> {
  const urls: string[] = [];
  for (const { variant, tree, pages } of await listed(ctx, view, live)) {
    for (const page of pages) urls.push(`<url><loc>${escapeHtml(`${view.origin}${pageHref(view, variant, tree, page)}`)}</loc></url>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Text for one line of Markdown: no line breaks, and the characters that would end a link text escaped. */
function inline(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/([\\[\]])/g, '\\$1');
}

export async function llmsTxt(ctx: Db, view: SiteView, live: Map<string, CurrentContent>): Promise<string> {
  const lines = [`# ${inline(view.title)}`, ''];
  for (const { variant, pages } of await listed(ctx, view, live)) {
    if (pages.length === 0) continue;
    const siblings = variant.section ? variant.section.variants : view.variants;
    const heading = [variant.section && view.sections.length > 1 ? variant.section.title : null, siblings.length > 1 || !variant.section ? variant.title : null].filter(Boolean).join(' › ');
    lines.push(`## ${inline(heading || variant.title)}`, '');
    for (const page of pages) {
      const description = page.node.description ? `: ${inline(page.node.description)}` : '';
      lines.push(`- [${inline(page.node.title)}](${`${view.origin}${markdownHref(view, variant, page)}`.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`)})${description}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * `llms-full.txt`: every page of llms.txt, whole, as Markdown, for the reader's claims (if blocks
 * evaluated), each headed by its address. Built once per content and claims, then served from the cache.
 */
export async function llmsFullTxt(ctx: Db, view: SiteView, live: Map<string, CurrentContent>, claims: Record<string, unknown> = {}): Promise<string> {
  const parts = [`# ${inline(view.title)}`, ''];
  for (const { variant, tree, pages } of await listed(ctx, view, live)) {
    for (const page of pages) {
      parts.push('---', '', `Source: ${view.origin}${markdownHref(view, variant, page)}`, '', (await pageMarkdown(ctx, tree, page, claims)).trimEnd(), '');
    }
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

/** A page as Markdown: its title and description, then its body with expressions evaluated. */
export async function pageMarkdown(ctx: Db, tree: RevisionTree, page: TreePage, claims: Record<string, unknown> = {}): Promise<string> {
  const source = await bodyMarkdown(ctx, page);
  let body: string;
  try {
    body = toMarkdown(source, tree, page, true, claims);
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    body = source;
  }
  const head = [`# ${page.node.title}`, ''];
  if (page.node.description) head.push(`> ${page.node.description.replace(/\s+/g, ' ').trim()}`, '');
  return `${head.join('\n')}\n${body.trim()}\n`;
}
