/**
 * Server-side HTML of a page's document (the JSON document of `format=document`, as parsed from Markdown
 * by src/content/markdown) for published sites, with the outline of its headings. The HTML is safe to
 * place in a page as it is: every text and attribute is escaped, URLs from content keep only the http,
 * https and mailto schemes (or none), and no HTML from content passes through.
 *
 * Styles: content.css (../assets) for the classes used here, and KaTeX's stylesheet for formulas.
 */
import type { Document, DocumentBlock } from '../../content/markdown/index.ts';
import { renderBlocks } from './blocks.ts';
import { HeadingIds, type OutlineEntry, type RenderContext, type RenderLinks } from './context.ts';

export type { OutlineEntry, RenderLinks } from './context.ts';
export { escapeAttribute, escapeHtml } from './escape.ts';

export interface RenderedDocument {
  html: string;
  /** The page's top-level headings in order, with the ids their elements carry (the sections of the content API). */
  outline: OutlineEntry[];
}

/**
 * Renders a page's document.
 *
 * @param document the page's body, evaluated first when it holds `if` blocks or expressions (see evaluateDocument)
 * @param links where the page's files and the site's other pages are published
 */
export function renderDocument(document: Document, links: RenderLinks): RenderedDocument {
  const nodes = document.nodes ?? [];
  const headings = new HeadingIds(nodes);
  let tabs = 0;
  let notes = 0;
  const ctx: RenderContext = {
    links,
    blocks: (blocks: DocumentBlock[], out: string[]) => renderBlocks(blocks, ctx, out),
    headingId: (heading) => headings.idOf(heading),
    nextTabsName: () => `tabs_${++tabs}`,
    nextNoteId: () => `note_${++notes}`,
    noteNumber: (id) => Number(id.slice('note_'.length)),
  };
  const out: string[] = [];
  renderBlocks(nodes, ctx, out);
  return { html: out.join(''), outline: headings.outline };
}
