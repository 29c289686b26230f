import { extractSections, FrontmatterError, type Document } from '../content/markdown/index.ts';
import { MarkdownLimitError } from '../content/markdown/limits.ts';
import { readWritten, type WrittenFacts } from '../content/link-analysis/written.ts';
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

/** The searchable text of a Markdown body. */
export function pageText(markdown: string): PageText {
  return readBodies([markdown])[0].text;
}

/** The searchable text of a body already read (without a tree, as `parseMarkdown(markdown)` reads it). */
export function documentText(document: Document): PageText {
  const headings: string[] = [];
  const texts: string[] = [];
  const sections: string[] = [];
  let room = MAX_INDEXED_TEXT;
  for (const section of extractSections(document)) {
    if (room <= 0) break;
    const text = cleanText(section.text).slice(0, room);
    room -= text.length;
    headings.push(cleanText(section.title));
    texts.push(text);
    sections.push(section.id);
  }
  return { headings: headings.join(SECTION_SEPARATOR), body: texts.join(SECTION_SEPARATOR), sections };
}

/** What indexing reads of a body: its searchable text and its link facts as written (one parse for both). */
export interface BodyRead {
  text: PageText;
  facts: WrittenFacts;
}

/** Each body read for the index; the task the worker pool runs. */
export function readBodies(bodies: string[]): BodyRead[] {
  return bodies.map((markdown) => {
    const { document, facts } = readWritten(markdown);
    return { text: markdown.trim() === '' ? EMPTY_TEXT : documentText(document), facts };
  });
}

const READ_BODIES = workerTask(import.meta.url, 'readBodies', readBodies);

/**
 * readBodies of many bodies, in batches on the worker pool (small batches on this thread), so that reading a
 * large page, or the many pages of a large space, keeps requests answering meanwhile.
 */
export function readPageBodies(bodies: string[]): Promise<BodyRead[]> {
  return runTaskInBatches(READ_BODIES, bodies, {
    sizeOf: (markdown) => markdown.length,
    what: (batch) => `the text of ${batch.length === 1 ? 'a page' : `${batch.length} pages`} for search`,
    errors: [MarkdownLimitError, FrontmatterError],
  });
}
