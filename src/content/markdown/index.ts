/**
 * Markdown ↔ document conversion of page bodies. Pages are stored as Markdown with the block tags of
 * the public client's format (hints, tabs, expandables, embeds, files, content references, titled code,
 * math, front matter) and served as Markdown or as the client's JSON document.
 */
export { parseMarkdown, normalizeSource } from './parse.ts';
export { renderMarkdown, renderPage, type RenderMarkdownOptions } from './render.ts';
export { writePage, type WritePageOptions } from './write-page.ts';
export { documentToPlainText, extractSections, type Section } from './sections.ts';
export { keptSlug, slugify, UniqueSlugs } from './slug.ts';
export { FrontmatterError } from './frontmatter.ts';
export { UnknownDocumentNode } from './nodes.ts';
export type { ParseOptions, RenderOptions } from './refs.ts';
export type * from './types.ts';
