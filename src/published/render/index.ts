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
import { HeadingIds, isHeading, type OutlineEntry, type RenderContext, type RenderLinks } from './context.ts';

export type { OutlineEntry, RenderLinks } from './context.ts';
export { escapeAttribute, escapeHtml } from './escape.ts';

export interface RenderedDocument {
  html: string;
  /**
   * The page's top-level headings in order, with the ids their elements carry (the sections of the content
   * API), and the operations of its top-level OpenAPI blocks where they stand.
   */
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
  return { html: out.join(''), outline: withOperations(nodes, headings.outline, links) };
}

const OPENAPI_BLOCKS = new Set<DocumentBlock['type']>(['swagger', 'openapi-operation', 'openapi-webhook']);

/**
 * The outline with the operations of the page's top-level OpenAPI blocks in their places (GitBook lists an
 * API reference's operations under "On this page"), each one level below the heading it follows.
 */
function withOperations(nodes: DocumentBlock[], headings: OutlineEntry[], links: RenderLinks): OutlineEntry[] {
  if (!links.openApiOutline || !nodes.some((node) => OPENAPI_BLOCKS.has(node.type))) return headings;
  const entries: OutlineEntry[] = [];
  let next = 0;
  let depth = 0;
  for (const node of nodes) {
    if (isHeading(node)) {
      const heading = headings[next++];
      entries.push(heading);
      depth = heading.depth;
    } else if (OPENAPI_BLOCKS.has(node.type)) {
      for (const operation of links.openApiOutline(node)) entries.push({ ...operation, depth: Math.min(3, depth + 1) as 1 | 2 | 3 });
    }
  }
  return entries;
}
