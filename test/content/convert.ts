import assert from 'node:assert/strict';
import { parseMarkdown, renderMarkdown, type Document, type DocumentBlock, type ParsedPage, type ParseOptions, type RenderOptions } from '../../src/content/markdown/index.ts';
import { inlineText } from '../../src/content/markdown/nodes.ts';
import { documentSchemaErrors } from './document-schema.ts';

export interface Hooks {
  parse?: ParseOptions;
  render?: RenderOptions;
}

export interface Converted {
  page: ParsedPage;
  nodes: DocumentBlock[];
  /** The Markdown written from the page's document. */
  markdown: string;
}

/** Asserts that a document fits the client's schema. */
export function assertValid(document: Document): void {
  assert.deepEqual(documentSchemaErrors(document), [], 'the document fits the client schema');
}

/**
 * Reads `markdown`, and checks what every conversion must hold: the document fits the client's schema,
 * the Markdown written from it reads back to the same page, and writing that again gives the same text.
 */
export function convert(markdown: string, hooks: Hooks = {}): Converted {
  const page = parseMarkdown(markdown, hooks.parse);
  assertValid(page.document);
  const written = renderMarkdown(page.document, { ...hooks.render, frontmatter: page.frontmatter });
  const reread = parseMarkdown(written, hooks.parse);
  assert.deepEqual(reread, page, 'document → markdown → document is the identity');
  assert.equal(renderMarkdown(reread.document, { ...hooks.render, frontmatter: reread.frontmatter }), written, 'markdown is stable after one pass');
  return { page, nodes: page.document.nodes, markdown: written };
}

/** Checks that a document written by hand survives document → markdown → document. */
export function assertDocumentRoundTrip(document: Document, hooks: Hooks = {}): string {
  assertValid(document);
  const written = renderMarkdown(document, hooks.render);
  assert.deepEqual(parseMarkdown(written, hooks.parse).document, document, `document → markdown → document:\n${written}`);
  return written;
}

/** Test hooks: `.assets/<name>` (the assets folder of an imported space) is the file `file-<name>`, and back. */
export const assetHooks: Required<Hooks> = {
  parse: { resolveFile: (src) => (src.startsWith('.assets/') ? `file-${src.slice('.assets/'.length)}` : undefined) },
  render: { fileUrl: (id) => (id.startsWith('file-') ? `.assets/${id.slice('file-'.length)}` : undefined) },
};

/** The text of a paragraph or a heading, for short assertions. */
export function textOf(block: DocumentBlock | undefined): string {
  if (block?.type === 'paragraph' || block?.type === 'heading-1' || block?.type === 'heading-2' || block?.type === 'heading-3') return inlineText(block.nodes);
  return '';
}
