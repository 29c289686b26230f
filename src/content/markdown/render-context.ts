import type { Code, PhrasingContent } from 'mdast';
import type { RenderOptions } from './refs.ts';
import type { DocumentBlock, DocumentFragment } from './types.ts';

/** What the Markdown writer's parts share while they write one page (render.ts makes it). */
export interface RenderContext {
  options: RenderOptions;
  /** Writes phrasing content as one line of Markdown (for captions, summaries and HTML blocks). */
  inlineMarkdown: (nodes: PhrasingContent[]) => string;
  /** Writes blocks as Markdown (the inside of a tag), without a final line break. */
  blocksMarkdown: (blocks: DocumentBlock[]) => string;
  /** Records the note of an annotation, to be written at the end of the page; answers its footnote label. */
  note: (fragments: DocumentFragment[]) => string;
  /** Writes a Markdown code block (fenced), without a final line break. */
  codeMarkdown: (code: Code) => string;
}
