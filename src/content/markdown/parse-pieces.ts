/**
 * Reading a page's Markdown piece by piece, each piece remembered by its text: a page saved again is read
 * from the pieces it already had, and only the pieces whose text changed are read by micromark again. The
 * tree is the one the whole page reads as (the property tests compare the two, positions aside: nothing
 * after the reader uses them).
 *
 * Where a page may be cut: before a line that follows a blank line, starts with neither a space, a tab nor
 * a list marker. The piece before it must then have ended every block it opened before that blank line
 * (its last top-level node is one a blank line or its own closing line ends, and ends before the blank
 * line: an unclosed fence, `$$` or HTML block runs on to the end of the piece and fails this). What starts
 * such a line is then read as at the start of a page, whatever came before. Reference and footnote
 * definitions are read page-wide (a `[label]` is a link only where the page defines it): a page that may
 * hold one (any `]:`) is read whole, as is the rest of a page from a piece that does not end cleanly.
 */
import type { Root, RootContent } from 'mdast';
import { BoundedMemo, markdownMemoEnabled } from './memo.ts';
import { blockReader, pageReader } from './processors.ts';

/** Characters of Markdown whose trees are remembered (the trees take some tens of times that in memory). */
const PIECE_BUDGET = 2_000_000;

/** Pages shorter than this are read whole: cutting them saves nothing worth the bookkeeping. */
const MIN_CUT_LENGTH = 2_000;

/** Top-level nodes after which a blank line and a line that starts a block leave nothing open. */
const CLOSED_BY_BLANK_LINE = new Set(['paragraph', 'heading', 'thematicBreak', 'table', 'blockquote', 'code', 'math', 'html', 'tagLine', 'yaml', 'list']);

/** A line a list could go on with after a blank line (a list item of any kind). */
const LIST_MARKER = /^(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)/;

const pieces = new BoundedMemo<readonly RootContent[]>(PIECE_BUDGET);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The offsets where a piece may start (0 first), judged on the text alone. */
function cutPoints(source: string): number[] {
  const cuts = [0];
  let at = source.indexOf('\n\n');
  while (at >= 0) {
    const start = at + 2;
    const end = source.indexOf('\n', start);
    const line = source.slice(start, end < 0 ? source.length : end);
    if (line !== '' && line[0] !== ' ' && line[0] !== '\t' && !LIST_MARKER.test(line)) cuts.push(start);
    // The next empty line, which may follow this one at once.
    at = source.indexOf('\n\n', at + 1);
  }
  return cuts;
}

/** How a piece is remembered: by its text, and whether it starts the page (front matter is read there only). */
const keyOf = (text: string, first: boolean) => (first ? 'p' : 'b') + text;

/**
 * Whether a piece (not the last) left nothing open for the next one: its last top-level node is one a
 * blank line or its own closing line ends, and it ends before the piece's trailing blank line (offsets
 * from `offset`, where the piece starts in the text that was read).
 */
function endsCleanly(text: string, nodes: readonly RootContent[], offset: number): boolean {
  const last = nodes.at(-1);
  if (!last || !CLOSED_BY_BLANK_LINE.has(last.type)) return false;
  const contentEnd = text.replace(/\n+$/, '').length;
  const end = last.position?.end.offset;
  return end !== undefined && end - offset <= contentEnd && text.length - contentEnd >= 2;
}

/**
 * The Markdown tree of a page (its source already normalised), as `pageReader.parse` gives it. Pieces
 * remembered are taken as they are; each run of pieces not remembered is read in one go (a read has a
 * cost of its own, so a page read the first time costs what reading it whole does) and cut into pieces
 * by where its nodes start, each remembered when it ends cleanly.
 */
export function readPage(source: string): Root {
  if (!markdownMemoEnabled() || source.length < MIN_CUT_LENGTH || source.includes(']:')) return pageReader.parse(source);
  const starts = cutPoints(source);
  const ends = [...starts.slice(1), source.length];
  const children: RootContent[] = [];
  const piece = (index: number) => source.slice(starts[index], ends[index]);
  for (let index = 0; index < starts.length; ) {
    const known = pieces.get(keyOf(piece(index), starts[index] === 0));
    if (known) {
      for (const node of known) children.push(node);
      index++;
      continue;
    }
    let until = index + 1;
    while (until < starts.length && !pieces.get(keyOf(piece(until), false))) until++;
    const offset = starts[index];
    const nodes = (offset === 0 ? pageReader : blockReader).parse(source.slice(offset, ends[until - 1])).children;
    let next = 0;
    for (let at = index; at < until; at++) {
      const own: RootContent[] = [];
      while (next < nodes.length && (nodes[next].position?.start.offset ?? 0) < ends[at] - offset) own.push(nodes[next++]);
      const text = piece(at);
      if (ends[at] < source.length && !endsCleanly(text, own, starts[at] - offset)) {
        // Something stays open past this piece: the rest of the page is read as one piece, as the whole
        // page would read it from here.
        const rest = source.slice(starts[at]);
        const key = keyOf(rest, starts[at] === 0);
        let restNodes = pieces.get(key);
        if (!restNodes) {
          restNodes = deepFreeze((starts[at] === 0 ? pageReader : blockReader).parse(rest).children);
          pieces.set(key, restNodes, key.length);
        }
        for (const node of restNodes) children.push(node);
        return { type: 'root', children };
      }
      const key = keyOf(text, starts[at] === 0);
      pieces.set(key, deepFreeze(own), key.length);
      for (const node of own) children.push(node);
    }
    index = until;
  }
  return { type: 'root', children };
}

/** Forgets every remembered piece (tests). */
export function forgetPieces(): void {
  pieces.clear();
}
