/**
 * Markdown → document. The page is parsed into a real Markdown tree (CommonMark, GFM tables and task
 * lists, `$$` math, YAML front matter, and the tag lines of syntax.ts), then converted block by block.
 */
import type { Definition, FootnoteDefinition, Nodes, Root } from 'mdast';
import type { ParseContext } from './context.ts';
import { readFrontmatter } from './frontmatter.ts';
import { checkMarkdownSource, checkMarkdownTree } from './limits.ts';
import { convertChildren } from './parse-blocks.ts';
import { phrasingOf } from './parse-html.ts';
import { convertInline } from './parse-inline.ts';
import { paragraph } from './nodes.ts';
import { blockReader, escapeText, pieceReader } from './processors.ts';
import { readPage } from './parse-pieces.ts';
import type { ParseOptions } from './refs.ts';
import type { Frontmatter, ParsedPage } from './types.ts';

/** Line endings become `\n`, and a byte order mark goes. */
export function normalizeSource(markdown: string): string {
  return markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/**
 * Reads a page written in Markdown.
 *
 * @param markdown the page, front matter first if it has any
 * @param options hooks that resolve image and file sources to the space's files, and links to pages
 * @throws FrontmatterError when the front matter is not a YAML mapping
 * @throws MarkdownLimitError (400) or PayloadTooLarge (413) when the page crosses one of MARKDOWN_LIMITS
 */
export function parseMarkdown(markdown: string, options: ParseOptions = {}): ParsedPage {
  const source = normalizeSource(markdown);
  checkMarkdownSource(source);
  const tree: Root = readPage(source);
  checkMarkdownTree(tree);
  let frontmatter: Frontmatter = {};
  const [first] = tree.children;
  if (first?.type === 'yaml') {
    frontmatter = readFrontmatter(first.value);
    tree.children.shift();
  }
  const definitions = new Map<string, Definition>();
  const footnotes = new Map<string, FootnoteDefinition>();
  const referenced = new Set<string>();
  // Every node in document order (a plain walk: unist-util-visit makes a closure per node, a few per cent of a read).
  const note = (node: Nodes): void => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
    if (node.type === 'footnoteDefinition' && !footnotes.has(node.identifier)) footnotes.set(node.identifier, node);
    if (node.type === 'footnoteReference') referenced.add(`^${node.identifier}`);
    if (node.type === 'linkReference' || node.type === 'imageReference') referenced.add(node.identifier);
    if ('children' in node) for (const child of node.children) note(child);
  };
  note(tree);
  const ctx: ParseContext = {
    options,
    definitions,
    footnotes,
    referenced,
    convertNote: (definition) => convertChildren(definition.children, ctx, 'hint'),
    subparse: (source) => pieceReader.parse(source),
    subparseBlocks: (source) => blockReader.parse(source),
    // Kept text is read as the writer will write it, so that it reads back the same next time.
    literal: (text) => paragraph(convertInline(phrasingOf(escapeText(text), ctx), ctx)),
  };
  return { document: { object: 'document', data: {}, nodes: convertChildren(tree.children, ctx, 'document') }, frontmatter };
}
