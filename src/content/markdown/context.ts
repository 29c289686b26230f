/** What the reader carries while it walks a page. */
import type { Definition, FootnoteDefinition, Root } from 'mdast';
import type { ParseOptions } from './refs.ts';
import type { DocumentBlock, DocumentBlockParagraph } from './types.ts';

export interface ParseContext {
  options: ParseOptions;
  /** Link reference definitions of the page, by identifier. */
  definitions: Map<string, Definition>;
  /** Footnote definitions of the page, by identifier: the notes of annotations. */
  footnotes: Map<string, FootnoteDefinition>;
  /** Identifiers that some link or image reference of the page uses. */
  referenced: Set<string>;
  /** Parses a piece of Markdown found inside a tag line, a caption or a summary. */
  subparse: (markdown: string) => Root;
  /** Parses blocks cut out of an HTML block that ran on into a tag line. */
  subparseBlocks: (markdown: string) => Root;
  /** Converts the children of a footnote definition (the body of an annotation). */
  convertNote: (definition: FootnoteDefinition) => DocumentBlock[];
  /** A paragraph holding text that could not be read as anything else (a tag that cannot be honoured, unknown HTML). */
  literal: (text: string) => DocumentBlockParagraph;
}
