/**
 * Writing a page back over the Markdown it was read from, changing only what changed. GitBook's canonical
 * form is what `renderMarkdown` writes; a page read from a file keeps the file's own bytes wherever its
 * content did not change, so an edit to one block changes only that block's lines — whatever the file's
 * style — and an unchanged document gives back the file exactly, byte for byte.
 *
 * How: the previous text (P) is read and written canonically (C₀); the new document is written canonically
 * (C₁). C₀ → C₁ is the edit, in canonical form. It is applied to P by a three-way merge of lines with C₀ as
 * the base: lines the edit did not touch keep P's bytes; lines it changed take C₁'s. Where P is not
 * canonical exactly where the edit falls, the edited block is written in canonical form (normalised once).
 */
import { diff3Merge } from 'node-diff3';
import { parseMarkdown } from './parse.ts';
import type { ParseOptions, RenderOptions } from './refs.ts';
import { renderMarkdown, type RenderMarkdownOptions } from './render.ts';
import type { Document } from './types.ts';

export interface WritePageOptions extends RenderMarkdownOptions {
  /** The Markdown the page was read from, to keep where its content is unchanged. */
  previous?: string;
  /** How the previous Markdown names files and pages (the same hooks it is read with). */
  parse?: ParseOptions;
  /**
   * How the previous Markdown wrote references, where that differs from how the new one writes them (a
   * page whose file moved: its relative links were written from the old file's folder).
   */
  previousRender?: RenderOptions;
}

/**
 * Writes a page's document (and front matter), over its previous Markdown when there is one. Without
 * `frontmatter`, the previous Markdown's front matter is kept (a document does not carry it).
 */
export function writePage(document: Document, options: WritePageOptions = {}): string {
  const { previous, parse, previousRender, ...render } = options;
  if (previous === undefined || previous === '') return renderMarkdown(document, render);
  const before = parseMarkdown(previous, parse);
  const written = renderMarkdown(document, { ...render, frontmatter: render.frontmatter ?? before.frontmatter });
  const canonicalBefore = renderMarkdown(before.document, { ...render, ...previousRender, frontmatter: before.frontmatter });
  if (canonicalBefore === written) return previous;
  const regions = diff3Merge<string>(previous.split('\n'), canonicalBefore.split('\n'), written.split('\n'), { excludeFalseConflicts: true });
  const lines: string[] = [];
  for (const region of regions) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) lines.push(...region.conflict.b);
  }
  return lines.join('\n');
}
