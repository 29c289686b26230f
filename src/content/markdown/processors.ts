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
 * The last plugin of a reader: the parse that remark-parse does, with what it would set up again on every
 * call done once. micromark's syntax extensions are combined into one here (micromark still merges the
 * CommonMark constructs into it per call, but no longer each extension), and a text that cannot hold a
 * literal autolink skips the tree walk that looks for them (about a tenth of a page's read). The tree is
 * the same: the combination keeps each construct's order, and the walk finds nothing in such a text.
 */
function readOnce(this: Processor): undefined {
  const data = this.data();
  const syntax: SyntaxExtension[] = [combineExtensions(data.micromarkExtensions ?? [])];
  const tree = data.fromMarkdownExtensions ?? [];
  const lean = tree.map(withoutLiteralLinks);
  const settings = data.settings;
  this.parser = (document) => fromMarkdown(document, { ...settings, extensions: syntax, mdastExtensions: MAY_HOLD_LITERAL_LINK.test(document) ? tree : lean });
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
