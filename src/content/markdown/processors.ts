/**
 * The Markdown reader and writer, configured once: CommonMark with GFM (tables, task lists,
 * strikethrough, autolinks, footnotes), `$$` math (a single `$` is not math, so prices stay text), YAML
 * front matter, and the tag lines of syntax.ts.
 */
import type { Nodes, Paragraph, Root, Text } from 'mdast';
import type { Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Handle } from 'mdast-util-to-markdown';
import type { Extension as SyntaxExtension } from 'micromark-util-types';
import { combineExtensions } from 'micromark-util-combine-extensions';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified, type Processor } from 'unified';
import { rememberingRoot } from './render-memo.ts';
import { remarkTagLines } from './syntax.ts';
import { CONTAINER_TAGS } from './tags.ts';

const math = { singleDollarTextMath: false };

/**
 * Text in which GFM's literal autolinks (`https://…`, `www.…`, `a@b.c`, `mailto:`, `xmpp:`) could be found
 * once read: each needs `@`, `www` or `http` in the text, written as such or through a character
 * reference (`&#64;`); a backslash escape only ever stands for punctuation, which is in the source too.
 */
const MAY_HOLD_LITERAL_LINK = /[@&]|www|http/i;

/** The name of remark-gfm's tree step that walks every text node looking for literal autolinks. */
export const LITERAL_LINK_TRANSFORM = 'transformGfmAutolinkLiterals';

/** A tree extension without the literal-autolink step (extensions may nest in lists). */
function withoutLiteralLinks(extension: FromMarkdownExtension | FromMarkdownExtension[]): FromMarkdownExtension | FromMarkdownExtension[] {
  if (Array.isArray(extension)) return extension.map((one) => withoutLiteralLinks(one) as FromMarkdownExtension);
  const transforms = extension.transforms?.filter((transform) => transform.name !== LITERAL_LINK_TRANSFORM);
  return transforms && transforms.length !== extension.transforms?.length ? { ...extension, transforms } : extension;
}

/**
 * The syntax constructs of the extensions (by the name micromark knows them by) that can only start
 * where the text holds some characters, each with a test for them: a text without them is read without
 * the construct. micromark tries a construct at every position whose character the construct is hooked
 * on (a table at the start of every line, an email autolink at every letter), and the attempt costs even
 * when it fails; a construct that fails wherever it is tried leaves the tree as it is without it. Each
 * test is a necessary condition of the construct's own tokenizer (so the tree is the same byte for byte;
 * test/content/markdown-syntax-pruning.test.ts compares the two on every fixture and made-up texts):
 *
 * - `$$` math (flow and text): a fence or a run of two dollars (`singleDollarTextMath` is off);
 * - tag lines (syntax.ts): `{%`, `<details`, `</details` or `<summary`, any case;
 * - a table: its delimiter row holds a `|`, or a `:` next to a `-` (`:-`, `-:`; a table needs no pipe);
 * - literal autolinks: `@` for an email, `www` for a www link, `http` for a protocol link, any case;
 * - a task list item's check: `[` then a space, a tab, a line ending, `x` or `X`, then `]`;
 * - footnotes (definition, call, and a call after a link's label): `[^` (every call needs a definition);
 * - strikethrough: `~`.
 *
 * Constructs not named here (CommonMark's own, front matter) are always tried.
 */
const NEEDED_IF: Record<string, (text: string) => boolean> = {
  mathFlow: (text) => text.includes('$$'),
  mathText: (text) => text.includes('$$'),
  tagLine: (text) => /\{%|<\/?details|<summary/i.test(text),
  table: (text) => /\||:-|-:/.test(text),
  emailAutolink: (text) => text.includes('@'),
  wwwAutolink: (text) => /www/i.test(text),
  protocolAutolink: (text) => /http/i.test(text),
  tasklistCheck: (text) => /\[[\s xX]\]/.test(text),
  gfmFootnoteDefinition: (text) => text.includes('[^'),
  gfmFootnoteCall: (text) => text.includes('[^'),
  gfmPotentialFootnoteCall: (text) => text.includes('[^'),
  strikethrough: (text) => text.includes('~'),
};

/** The constructs left out of a text that cannot hold them (tests check that the readers still have each). */
export const PRUNABLE_CONSTRUCTS: readonly string[] = Object.keys(NEEDED_IF);

/** The fields of a syntax extension that hook constructs on characters (the others are left as they are). */
const HOOK_FIELDS = new Set(['document', 'contentInitial', 'flowInitial', 'flow', 'string', 'text']);

let pruning = true;

/** Switches the syntax pruning above on or off (tests compare the two); answers the previous setting. */
export function setSyntaxPruning(on: boolean): boolean {
  const was = pruning;
  pruning = on;
  return was;
}

/** Runs `fn` with every construct tried on every text, then restores the setting. */
export function withoutSyntaxPruning<T>(fn: () => T): T {
  const was = setSyntaxPruning(false);
  try {
    return fn();
  } finally {
    setSyntaxPruning(was);
  }
}

/** Counts of reads, and of reads that left out at least one construct (tests and measurements). */
export const syntaxStats = { reads: 0, pruned: 0 };

/** A combined syntax extension without the constructs named in `left`. */
function withoutConstructs(combined: SyntaxExtension, left: ReadonlySet<string>): SyntaxExtension {
  const pruned: Record<string, unknown> = {};
  for (const [field, hooks] of Object.entries(combined)) {
    if (!HOOK_FIELDS.has(field) || !hooks) {
      pruned[field] = hooks;
      continue;
    }
    const kept: Record<string, unknown> = {};
    for (const [code, constructs] of Object.entries(hooks as Record<string, unknown>)) {
      const list = ([] as Array<{ name?: string }>).concat(constructs as never).filter((construct) => !(construct?.name !== undefined && left.has(construct.name)));
      if (list.length > 0) kept[code] = list;
    }
    pruned[field] = kept;
  }
  return pruned as SyntaxExtension;
}

/** The names of the constructs `combined` hooks on characters (tests). */
export function constructNames(combined: SyntaxExtension): Set<string> {
  const names = new Set<string>();
  for (const [field, hooks] of Object.entries(combined)) {
    if (!HOOK_FIELDS.has(field) || !hooks) continue;
    for (const constructs of Object.values(hooks as Record<string, unknown>)) for (const construct of ([] as Array<{ name?: string }>).concat(constructs as never)) if (construct?.name) names.add(construct.name);
  }
  return names;
}

/** The combined syntax extension of each reader, for tests. */
export const readerSyntax = new WeakMap<object, SyntaxExtension>();

/**
 * The last plugin of a reader: the parse that remark-parse does, with what it would set up again on every
 * call done once. micromark's syntax extensions are combined into one here (micromark still merges the
 * CommonMark constructs into it per call, but no longer each extension), and a text that cannot hold a
 * literal autolink skips the tree walk that looks for them (about a tenth of a page's read). The tree is
 * the same: the combination keeps each construct's order, and the walk finds nothing in such a text.
 * A text read without some constructs (NEEDED_IF) gets a combined extension without them, made once for
 * each set of constructs left out.
 */
function readOnce(this: Processor): undefined {
  const data = this.data();
  const combined = combineExtensions(data.micromarkExtensions ?? []);
  readerSyntax.set(this, combined);
  const full: SyntaxExtension[] = [combined];
  const present = [...constructNames(combined)].filter((name) => Object.hasOwn(NEEDED_IF, name));
  const variants = new Map<string, SyntaxExtension[]>();
  const syntaxFor = (document: string): SyntaxExtension[] => {
    syntaxStats.reads++;
    if (!pruning) return full;
    let key = '';
    for (const name of present) key += NEEDED_IF[name](document) ? '1' : '0';
    if (!key.includes('0')) return full;
    syntaxStats.pruned++;
    let syntax = variants.get(key);
    if (!syntax) {
      syntax = [withoutConstructs(combined, new Set(present.filter((_name, i) => key[i] === '0')))];
      variants.set(key, syntax);
    }
    return syntax;
  };
  const tree = data.fromMarkdownExtensions ?? [];
  const lean = tree.map(withoutLiteralLinks);
  const settings = data.settings;
  this.parser = (document) => fromMarkdown(document, { ...settings, extensions: syntaxFor(document), mdastExtensions: MAY_HOLD_LITERAL_LINK.test(document) ? tree : lean });
}

/** Reads a page. */
export const pageReader = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm).use(remarkMath, math).use(remarkTagLines).use(readOnce).freeze();

/** Reads a run of blocks cut out of a page (no front matter). */
export const blockReader = unified().use(remarkParse).use(remarkGfm).use(remarkMath, math).use(remarkTagLines).use(readOnce).freeze();

/**
 * Reads pieces found inside a tag line, a caption or a summary: no front matter, and no tag lines, so
 * that a malformed tag in a tag line is read as text rather than as a tag line again.
 */
export const pieceReader = unified().use(remarkParse).use(remarkGfm).use(remarkMath, math).use(readOnce).freeze();

/** Text that would read as one of our tags is escaped (`\{% hint %}`); unknown tags are left as they are. */
const tagInText = { character: '{', after: String.raw`%\s*(?:end)?(?:${CONTAINER_TAGS.join('|')})(?![\w-])` };

/**
 * Text is written as usual, except that a line after a hard break that would start with `{%` is
 * escaped: any `{%` at the start of a line begins a tag line, which would cut the paragraph in two.
 */
const text: Handle = (node: Text, parent, state, info) => {
  const value = state.safe(node.value, info);
  const siblings: Nodes[] = parent ? parent.children : [];
  const index = siblings.indexOf(node);
  // A dot is syntax only after a number at the start of a line ("1." starts a list); GitBook leaves the others alone.
  const dots = value.replace(/(^|[^0-9\\])\\\./g, '$1.');
  return index > 0 && siblings[index - 1].type === 'break' ? dots.replace(/^([ \t]*)\{%/, '$1\\{%') : dots;
};

/** HTML and tags get a blank line on each side, so that no HTML block runs on into the next block. */
function separateHtml(left: Nodes, right: Nodes): number | undefined {
  return left.type === 'html' || right.type === 'html' ? 1 : undefined;
}

/** Writes Markdown trees. */
export const markdownWriter = unified()
  .use(remarkStringify, { bullet: '*', emphasis: '_', strong: '*', rule: '*', fences: true, listItemIndent: 'mixed', resourceLink: true, unsafe: [tagInText], join: [separateHtml], handlers: { text, root: rememberingRoot } })
  .use(remarkGfm)
  .use(remarkMath, math)
  .use(remarkFrontmatter, ['yaml']);

export function writeMarkdown(root: Root): string {
  return markdownWriter.stringify(root);
}

/** Writes text as the Markdown of a paragraph that reads back as that text. */
export function escapeText(text: string): string {
  const children: Paragraph['children'] = text.split('\n').flatMap((line, index): Paragraph['children'] => {
    const content: Paragraph['children'] = line === '' ? [] : [{ type: 'text', value: line }];
    return index === 0 ? content : [{ type: 'break' }, ...content];
  });
  return writeMarkdown({ type: 'root', children: [{ type: 'paragraph', children }] }).trim();
}
