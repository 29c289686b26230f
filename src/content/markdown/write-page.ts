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
  // A previous text already canonical has nothing of its own to keep: the edit is the new text.
  if (canonicalBefore === previous) return written;
  return mergeLines(previous, canonicalBefore, written);
}

/**
 * The three-way merge, by blocks first: texts cut at blank lines give pieces that are nearly all distinct,
 * where lines repeat (blank lines, list markers) and make a merge of lines grow with the square of the
 * page. Only where the pieces conflict (the previous text is not canonical where the edit falls) are
 * that region's lines merged, so the edited lines take the new text and the others keep their bytes.
 */
function mergeLines(previous: string, base: string, edited: string): string {
  const pieces = (text: string) => text.split('\n\n');
  const merged: string[] = [];
  for (const region of diff3Merge<string>(pieces(previous), pieces(base), pieces(edited), { excludeFalseConflicts: true })) {
    if (region.ok) merged.push(...region.ok);
    else if (region.conflict) {
      const { a, o, b } = region.conflict;
      const lines = (chunk: string[]) => (chunk.length ? chunk.join('\n\n').split('\n') : []);
      const out: string[] = [];
      for (const inner of diff3Merge<string>(lines(a), lines(o), lines(b), { excludeFalseConflicts: true })) {
        if (inner.ok) out.push(...inner.ok);
        else if (inner.conflict) out.push(...inner.conflict.b);
      }
      if (out.length) merged.push(out.join('\n'));
    }
  }
  return merged.join('\n\n');
}
