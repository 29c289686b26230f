import { extractSections, FrontmatterError, normalizeSource, parseMarkdown, type Document } from '../content/markdown/index.ts';
import { MarkdownLimitError } from '../content/markdown/limits.ts';
import { runTaskInBatches, workerTask } from '../workers/pool.ts';

/**
 * The searchable text of a page body: its sections (the parts between top-level headings), kept in two
 * aligned columns — the headings and the section texts — so that a match found by the database can be
 * traced back to its section. The text is a function of the body alone (no tree, no variables), so text
 * read once can be reused for every page, in any space, that holds the same body.
 */
export interface PageText {
  /** Section headings, in order, joined by SECTION_SEPARATOR ('' for the text before the first heading). */
  headings: string;
  /** Section texts, aligned with `headings`. */
  body: string;
  /** The anchors of the sections, aligned with `headings` ('' for the text before the first heading). */
  sections: string[];
}

/** Between two sections. Both engines take it for a word break; it never occurs in indexed text. */
export const SECTION_SEPARATOR = '\u001e';
/** Mark the matches in highlighted text (private-use characters, removed from indexed text). */
export const MATCH_START = '\ue000';
export const MATCH_END = '\ue001';

/**
 * At most this many characters of section text per page are indexed: PostgreSQL's tsvector is limited to
 * 1 MB, and both engines are held to the same limit so that they find the same pages.
 */
export const MAX_INDEXED_TEXT = 200_000;

export const EMPTY_TEXT: PageText = { headings: '', body: '', sections: [] };

const RESERVED = /[\u001e\ue000\ue001]/g;

/** Text without the characters reserved for separating sections and marking matches. */
export function cleanText(text: string): string {
  return text.replace(RESERVED, ' ');
}

/** Reads a body; front matter that cannot be read is set aside, so that the text below it is still found. */
function readDocument(markdown: string): Document {
  try {
    return parseMarkdown(markdown).document;
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    return parseMarkdown(normalizeSource(markdown).replace(/^---\n[\s\S]*?\n---(?:\n|$)/, '')).document;
  }
}

/** The searchable text of a Markdown body. */
export function pageText(markdown: string): PageText {
  if (markdown.trim() === '') return EMPTY_TEXT;
  const headings: string[] = [];
  const texts: string[] = [];
  const sections: string[] = [];
  let room = MAX_INDEXED_TEXT;
  for (const section of extractSections(readDocument(markdown))) {
    if (room <= 0) break;
    const text = cleanText(section.text).slice(0, room);
    room -= text.length;
    headings.push(cleanText(section.title));
    texts.push(text);
    sections.push(section.id);
  }
  return { headings: headings.join(SECTION_SEPARATOR), body: texts.join(SECTION_SEPARATOR), sections };
}

/** pageText of each body; the task the worker pool runs. */
export function pageTexts(bodies: string[]): PageText[] {
  return bodies.map(pageText);
}

const PAGE_TEXTS = workerTask(import.meta.url, 'pageTexts', pageTexts);

/**
 * pageText of many bodies, in batches on the worker pool (small batches on this thread), so that reading a
 * large page, or the many pages of a large space, keeps requests answering meanwhile.
 */
export function readPageTexts(bodies: string[]): Promise<PageText[]> {
  return runTaskInBatches(PAGE_TEXTS, bodies, {
    sizeOf: (markdown) => markdown.length,
    what: (batch) => `the text of ${batch.length === 1 ? 'a page' : `${batch.length} pages`} for search`,
    errors: [MarkdownLimitError, FrontmatterError],
  });
}
