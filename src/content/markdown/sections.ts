/**
 * A page cut at its headings, for search results that point into a page, and its whole text.
 */
import { inlineText } from './nodes.ts';
import { blocksText } from './plain-text.ts';
import { slugify, UniqueSlugs } from './slug.ts';
import type { Document, DocumentBlock } from './types.ts';

export interface Section {
  /** The heading's anchor: its own id when it has one, else the slug of its title; unique within the page. Empty for the text before the first heading. */
  id: string;
  /** The heading's text; empty for the text before the first heading. */
  title: string;
  /** 1 to 3 for a heading; 0 for the text before the first heading. */
  depth: number;
  /** The text from the heading to the next heading. */
  text: string;
}

/** The text of a page, headings included, one block per line. */
export function documentToPlainText(document: Document): string {
  return blocksText(document.nodes).join('\n');
}

/**
 * The parts of a page between its top-level headings (headings nested in tabs, hints or expandables
 * belong to the part they sit in). Text before the first heading is a part of depth 0, given only when
 * there is some.
 */
export function extractSections(document: Document): Section[] {
  const slugs = new UniqueSlugs();
  const sections: Section[] = [];
  let current: { id: string; title: string; depth: number; blocks: DocumentBlock[] } = { id: '', title: '', depth: 0, blocks: [] };
  const close = () => {
    const text = blocksText(current.blocks).join('\n');
    if (current.depth > 0 || text !== '') sections.push({ id: current.id, title: current.title, depth: current.depth, text });
  };
  for (const block of document.nodes) {
    if (block.type === 'heading-1' || block.type === 'heading-2' || block.type === 'heading-3') {
      close();
      const title = inlineText(block.nodes).trim();
      current = { id: slugs.claim(block.data.id ?? slugify(title, 'section')), title, depth: Number(block.type.slice(-1)), blocks: [] };
    } else current.blocks.push(block);
  }
  close();
  return sections;
}
