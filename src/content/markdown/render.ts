/**
 * Document → Markdown: the blocks become a Markdown tree (render-blocks.ts), which remark-stringify
 * writes with the same extensions the reader uses. The writer's output reads back to the same document.
 */
import type { FootnoteDefinition, RootContent } from 'mdast';
import { writeFrontmatter } from './frontmatter.ts';
import { writeMarkdown } from './processors.ts';
import { AskedHooks, rememberedBlocks } from './render-block-memo.ts';
import { renderBlock, renderBlocks } from './render-blocks.ts';
import type { RenderContext } from './render-inline.ts';
import type { RenderOptions } from './refs.ts';
import type { Document, DocumentFragment, Frontmatter, ParsedPage } from './types.ts';

export interface RenderMarkdownOptions extends RenderOptions {
  /** Front matter to write at the top of the page. */
  frontmatter?: Frontmatter;
}

function stringify(children: RootContent[]): string {
  return writeMarkdown({ type: 'root', children });
}

/**
 * Writes a page's document as Markdown.
 *
 * @param document the page's document
 * @param options front matter to write first, and hooks that give the URLs of the space's files and pages
 */
export function renderMarkdown(document: Document, options: RenderMarkdownOptions = {}): string {
  const notes: DocumentFragment[][] = [];
  const hooks = new AskedHooks(options);
  const ctx: RenderContext = {
    options: hooks.options,
    note: (fragments) => String(notes.push(fragments)),
    inlineMarkdown: (nodes) => stringify([{ type: 'paragraph', children: nodes }]).trim(),
    blocksMarkdown: (blocks) => stringify(renderBlocks(blocks, ctx)).replace(/\n+$/, ''),
    codeMarkdown: (code) => stringify([code]).replace(/\n+$/, ''),
  };
  const children: RootContent[] = rememberedBlocks(document.nodes, ctx, hooks, () => notes.length, renderBlock);
  // Annotations are footnotes: each note is written at the end of the page, in the order of the notes.
  for (let index = 0; index < notes.length; index++) {
    const body = notes[index].find((fragment) => fragment.fragment === 'annotation-body')?.nodes ?? [];
    children.push({ type: 'footnoteDefinition', identifier: String(index + 1), label: null, children: renderBlocks(body, ctx) as FootnoteDefinition['children'] });
  }
  const yaml = writeFrontmatter(options.frontmatter);
  if (yaml !== undefined) children.unshift({ type: 'yaml', value: yaml });
  return children.length === 0 ? '' : stringify(children);
}

/** Writes a page: its front matter, then its document. */
export function renderPage(page: ParsedPage, options: RenderOptions = {}): string {
  return renderMarkdown(page.document, { ...options, frontmatter: page.frontmatter });
}
