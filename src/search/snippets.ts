import { MATCH_END, MATCH_START, SECTION_SEPARATOR } from './page-text.ts';

/**
 * From a page's marked text (the engine's highlighting of its headings and body) to the sections that
 * match, each with a snippet: a part of its text around the first match, the match kept whole, cut at
 * word boundaries.
 */
export interface SectionMatch {
  /** The heading's anchor; '' for the text before the first heading. */
  id: string;
  /** The heading's text; '' for the text before the first heading. */
  title: string;
  snippet: string;
}

/** At most this many sections are given per page, in reading order. */
export const MAX_SECTIONS_PER_PAGE = 5;
/** About this many characters of text per snippet (more when the match itself is longer). */
export const SNIPPET_LENGTH = 200;

const MARKS = new RegExp(`[${MATCH_START}${MATCH_END}]`, 'g');
// The words of a phrase are marked one by one; a match is the run of marked words.
const BETWEEN_MARKED_WORDS = new RegExp(`${MATCH_END}([\\s\\p{P}]*)${MATCH_START}`, 'gu');

function unmark(text: string): string {
  return text.replace(MARKS, '');
}

/** The plain text and where its first match starts and ends (-1 when nothing is marked). */
function firstMatch(marked: string): { text: string; start: number; end: number } {
  const joined = marked.replace(BETWEEN_MARKED_WORDS, '$1');
  const at = joined.indexOf(MATCH_START);
  if (at < 0) return { text: unmark(joined), start: -1, end: -1 };
  const before = unmark(joined.slice(0, at));
  const close = joined.indexOf(MATCH_END, at);
  const inside = unmark(joined.slice(at, close < 0 ? joined.length : close));
  return { text: unmark(joined), start: before.length, end: before.length + inside.length };
}

/** A part of `marked` around its first match (the start of the text when nothing is marked). */
export function snippet(marked: string, length = SNIPPET_LENGTH): string {
  const { text, start, end } = firstMatch(marked);
  const [matchStart, matchEnd] = start < 0 ? [0, 0] : [start, end];
  const room = Math.max(0, length - (matchEnd - matchStart));
  let from = Math.max(0, matchStart - Math.floor(room / 3));
  let to = Math.min(text.length, matchEnd + (room - (matchStart - from)));
  from = Math.max(0, Math.min(from, to - length));
  // Whole words only: move the ends inwards to a space, never into the match.
  if (from > 0 && !/\s/.test(text[from - 1])) {
    const space = text.slice(from, matchStart).search(/\s/);
    if (space >= 0) from += space + 1;
  }
  if (to < text.length && !/\s/.test(text[to])) {
    const space = text.slice(matchEnd, to).search(/\s\S*$/);
    if (space >= 0) to = matchEnd + space;
  }
  const part = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '… ' : ''}${part}${to < text.length ? ' …' : ''}`;
}

/** The sections of a page whose heading or text holds a match, in reading order. */
export function matchedSections(page: { headings: string; body: string; sections: string }, max = MAX_SECTIONS_PER_PAGE): SectionMatch[] {
  const ids = JSON.parse(page.sections) as string[];
  const headings = page.headings.split(SECTION_SEPARATOR);
  const texts = page.body.split(SECTION_SEPARATOR);
  const found: SectionMatch[] = [];
  for (let i = 0; i < ids.length && found.length < max; i++) {
    const heading = headings[i] ?? '';
    const text = texts[i] ?? '';
    if (!heading.includes(MATCH_START) && !text.includes(MATCH_START)) continue;
    found.push({ id: ids[i], title: unmark(heading).trim(), snippet: snippet(text) });
  }
  return found;
}
