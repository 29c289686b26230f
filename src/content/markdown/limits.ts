/**
 * The bounds of one page's Markdown. A hostile page (lists nested thousands deep, tens of thousands of
 * emphasis marks, HTML nested without end) costs the Markdown reader time that grows faster than its
 * length, and its tree would overflow the stack of every recursive walk after it. Each bound is checked
 * before the costly step it protects, by a walk that is linear and never recursive, and a page that
 * crosses one is refused with a 400 (413 for its length) that names the bound.
 */
import type { Root } from 'mdast';
import { BadRequest, PayloadTooLarge } from '../../errors.ts';

export const MARKDOWN_LIMITS = {
  /** Characters of one page's Markdown. */
  maxLength: 500_000,
  /** Containers (quotes, list items, indentation) one line may open. */
  maxLineNesting: 100,
  /** Longest run of one emphasis mark (`*`, `_`, `~`) in a line that is not a divider. */
  maxDelimiterRun: 100,
  /** Emphasis marks (`*`, `_`, `~`) and brackets in one paragraph's lines (a run of lines without a blank one). */
  maxDelimitersPerParagraph: 10_000,
  /** Depth of the Markdown tree (a block or inline inside another). */
  maxTreeDepth: 200,
  /** Nodes of the Markdown tree. */
  maxTreeNodes: 200_000,
  /** Depth of the HTML of one paragraph or HTML block (an element inside another). */
  maxHtmlDepth: 200,
  /** Cell separators (`|`) of one table (a run of lines without a blank one). */
  maxTableCells: 20_000,
} as const;

/** A page that crosses one of MARKDOWN_LIMITS. */
export class MarkdownLimitError extends BadRequest {}

const format = (n: number) => n.toLocaleString('en-US');

/** Refuses Markdown that is too long or whose lines nest or repeat marks beyond the bounds; reads every character once. */
export function checkMarkdownSource(markdown: string): void {
  if (markdown.length > MARKDOWN_LIMITS.maxLength) {
    throw new PayloadTooLarge(
      `The page is ${format(markdown.length)} characters long; a page holds at most ${format(MARKDOWN_LIMITS.maxLength)}. Split it into several pages.`,
    );
  }
  let line = 1;
  let paragraphMarks = 0;
  let paragraphPipes = 0;
  let paragraphHtml = 0;
  let paragraphStart = 1;
  // The fence (``` or ~~~) of the code block the line is in: code is text, its marks are not counted.
  let fence = '';
  let i = 0;
  const n = markdown.length;
  while (i < n) {
    // The line's prefix: indentation, quote marks and list markers, each one container deeper.
    let nesting = 0;
    let columns = 0;
    for (;;) {
      const c = markdown.charCodeAt(i);
      if (c === 32) { columns += 1; i++; continue; }
      if (c === 9) { columns += 4; i++; continue; }
      if (c === 62 /* > */) { nesting++; i++; continue; }
      if ((c === 45 || c === 42 || c === 43) && (markdown.charCodeAt(i + 1) === 32 || markdown.charCodeAt(i + 1) === 9)) { nesting++; i += 2; continue; }
      break;
    }
    nesting += Math.floor(columns / 2);
    const start = i;
    const opening = /^(`{3,}|~{3,})/.exec(markdown.slice(i, i + 64));
    if (opening && (fence === '' || (opening[1][0] === fence[0] && opening[1].length >= fence.length))) fence = fence === '' ? opening[1] : '';
    else if (fence !== '') {
      const end = markdown.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
      line++;
      continue;
    }
    if (nesting > MARKDOWN_LIMITS.maxLineNesting) {
      throw new MarkdownLimitError(
        `Line ${line} of the page nests quotes, lists or indentation ${nesting} levels deep; a page nests at most ${MARKDOWN_LIMITS.maxLineNesting}.`,
      );
    }
    // The rest of the line: runs of emphasis marks, and the marks and brackets of the paragraph.
    let run = 0;
    let runChar = 0;
    let longest = 0;
    let marks = 0;
    let pipes = 0;
    let tags = false;
    let blank = true;
    while (i < n) {
      const c = markdown.charCodeAt(i);
      if (c === 10) break;
      if (c !== 32 && c !== 9) blank = false;
      if (c === 42 || c === 95 || c === 126) {
        marks++;
        run = c === runChar ? run + 1 : 1;
        runChar = c;
        if (run > longest) longest = run;
      } else {
        runChar = 0;
        if (c === 91 || c === 93) marks++;
        else if (c === 124) pipes++;
        else if (c === 60) tags = true;
      }
      i++;
    }
    if (longest > MARKDOWN_LIMITS.maxDelimiterRun && !isDivider(markdown.slice(start, i))) {
      throw new MarkdownLimitError(
        `Line ${line} of the page has a run of ${longest} emphasis marks (*, _ or ~); a page has runs of at most ${MARKDOWN_LIMITS.maxDelimiterRun}.`,
      );
    }
    if (blank && nesting === 0) {
      paragraphMarks = 0;
      paragraphPipes = 0;
      paragraphHtml = 0;
      paragraphStart = line + 1;
    } else {
      paragraphMarks += marks;
      paragraphPipes += pipes;
      if (tags) paragraphHtml = htmlDepth(markdown.slice(start, i), paragraphHtml, `the paragraph from line ${paragraphStart} of the page`);
      if (paragraphPipes > MARKDOWN_LIMITS.maxTableCells) {
        throw new MarkdownLimitError(
          `The table from line ${paragraphStart} of the page has more than ${format(MARKDOWN_LIMITS.maxTableCells)} cells; a page's table has at most that many. Split it into several tables.`,
        );
      }
      if (paragraphMarks > MARKDOWN_LIMITS.maxDelimitersPerParagraph) {
        throw new MarkdownLimitError(
          `The paragraph from line ${paragraphStart} of the page has more than ${format(MARKDOWN_LIMITS.maxDelimitersPerParagraph)} emphasis marks and brackets; separate its parts with blank lines.`,
        );
      }
    }
    i++;
    line++;
  }
}

/** A line of only one kind of mark (and spaces) is a divider, or text: not emphasis. */
function isDivider(text: string): boolean {
  return /^[ \t]*([*_~-])(?:[ \t]*\1)*[ \t]*$/.test(text);
}

/** Elements that never hold others. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^<>]*?(\/?)>/g;

/**
 * How deep the elements of a piece of HTML nest (opened and not yet closed), starting at `depth`; refuses
 * HTML deeper than the bound. The estimate counts an element left open (a `<p>` closed by the next one)
 * as still open, so it is never below the depth the HTML parser builds.
 */
function htmlDepth(html: string, depth: number, what: string): number {
  let current = depth;
  for (const match of html.matchAll(TAG)) {
    const name = match[2].toLowerCase();
    if (VOID.has(name) || match[3] === '/') continue;
    if (match[1] === '/') current = Math.max(0, current - 1);
    else if (++current > MARKDOWN_LIMITS.maxHtmlDepth) {
      throw new MarkdownLimitError(`The HTML of ${what} nests elements more than ${MARKDOWN_LIMITS.maxHtmlDepth} deep, the most a page may.`);
    }
  }
  return current;
}

/** Refuses HTML nested beyond the bound, before the HTML parser (which recurses over its tree) reads it. */
export function checkHtmlSource(html: string): void {
  htmlDepth(html, 0, 'the page');
}

interface Walked {
  children?: Walked[];
}

/** The depth and the size of a tree, walked with a stack of its own; stops as soon as a bound is crossed. */
function measure(root: Walked, maxDepth: number, maxNodes: number): { depth: number; nodes: number } {
  const stack: Array<[Walked, number]> = [[root, 0]];
  let depth = 0;
  let nodes = 0;
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    nodes++;
    if (level > depth) depth = level;
    if (depth > maxDepth || nodes > maxNodes) break;
    for (const child of node.children ?? []) stack.push([child, level + 1]);
  }
  return { depth, nodes };
}

/** Refuses a Markdown tree that nests deeper or holds more nodes than the bounds, before anything recurses over it. */
export function checkMarkdownTree(tree: Root): void {
  const { depth, nodes } = measure(tree as Walked, MARKDOWN_LIMITS.maxTreeDepth, MARKDOWN_LIMITS.maxTreeNodes);
  if (depth > MARKDOWN_LIMITS.maxTreeDepth) {
    throw new MarkdownLimitError(`The page nests its blocks and text more than ${MARKDOWN_LIMITS.maxTreeDepth} levels deep, the most a page may.`);
  }
  if (nodes > MARKDOWN_LIMITS.maxTreeNodes) {
    throw new MarkdownLimitError(`The page has more than ${format(MARKDOWN_LIMITS.maxTreeNodes)} blocks and pieces of text, the most a page may; split it into several pages.`);
  }
}
