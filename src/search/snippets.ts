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

function unmark(text: string): string {
  return text.replace(MARKS, '');
}

const NEXT_MARKED_WORD = new RegExp(`[\\s\\p{P}]*${MATCH_START}`, 'uy');
const UNMARKED = new RegExp(`[^${MATCH_START}${MATCH_END}]`);
const SQUEEZABLE = /\s\s|[^\S ]/;
const WHITE_SPACE = /\s+/g;
const START_CODE = MATCH_START.charCodeAt(0);
const END_CODE = MATCH_END.charCodeAt(0);

/** The index in `text` after `count` plain characters from `from` (marks not counted), or its length. */
function afterPlain(text: string, from: number, count: number): number {
  let i = from;
  for (let plain = 0; i < text.length && plain < count; i++) {
    const code = text.charCodeAt(i);
    if (code !== START_CODE && code !== END_CODE) plain++;
  }
  return i;
}

/** How many marks `text` holds between `from` and `to`. */
function marksBetween(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === START_CODE || code === END_CODE) count++;
  }
  return count;
}

/**
 * The plain text a snippet of `length` can come from, and where the first match starts and ends in it (-1 when
 * nothing is marked): every character before the first match (there is no mark before it) back to `length` + 2
 * of them, the match (its marked words joined by the spaces or punctuation between them), and after it
 * `length` + 2 plain characters; whether plain text lies before and after that part. A snippet cut from the
 * part is the one cut from the whole text: the cut and its word boundaries stay within `length` + 1 characters
 * of the match. A section's text may run to kilobytes, its snippet to a couple of hundred characters, and an
 * organization search cuts up to 500 of them: the part alone is copied, once.
 */
function around(marked: string, length: number): { text: string; start: number; end: number; before: boolean; after: boolean } {
  const at = marked.indexOf(MATCH_START);
  // The first match's end: the close of its last marked word that only spaces or punctuation join to the next.
  let end = at < 0 ? 0 : marked.length;
  let close = -1;
  for (let from = at; at >= 0; ) {
    close = marked.indexOf(MATCH_END, from);
    if (close < 0) break;
    NEXT_MARKED_WORD.lastIndex = close + 1;
    if (!NEXT_MARKED_WORD.test(marked)) {
      end = close + 1;
      break;
    }
    from = NEXT_MARKED_WORD.lastIndex;
  }
  const from = Math.max(0, at - (length + 2));
  const to = afterPlain(marked, end, length + 2);
  const text = unmark(marked.slice(from, to));
  const before = from > 0;
  const after = to < marked.length && UNMARKED.test(marked.slice(to));
  if (at < 0) return { text, start: -1, end: -1, before, after };
  const start = at - from;
  const last = close < 0 ? to : close;
  return { text, start, end: start + (last - at) - marksBetween(marked, at, last), before, after };
}

/** A part of `marked` around its first match (the start of the text when nothing is marked). */
export function snippet(marked: string, length = SNIPPET_LENGTH): string {
  const { text, start, end, before, after } = around(marked, length);
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
  const cut = text.slice(from, to);
  // White space squeezed to single spaces; most parts have none to squeeze, and are not copied for it.
  const part = (SQUEEZABLE.test(cut) ? cut.replace(WHITE_SPACE, ' ') : cut).trim();
  return `${before || from > 0 ? '… ' : ''}${part}${after || to < text.length ? ' …' : ''}`;
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
