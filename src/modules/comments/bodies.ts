import { parseMarkdown, renderMarkdown, UnknownDocumentNode, type Document } from '../../content/markdown/index.ts';
import { BadRequest } from '../../errors.ts';
import { MAX_COMMENT_LENGTH, type BodyFormat, type BodyInput } from './schemas.ts';

/**
 * Comment and reply bodies are stored as Markdown. A body sent as a JSON document is written as Markdown
 * first; both are refused when they say nothing or are longer than MAX_COMMENT_LENGTH characters.
 *
 * @param field the body member being read ("body"), so that errors name it
 */
export function bodyMarkdown(input: BodyInput, field = 'body'): string {
  if (input.markdown !== undefined && input.document !== undefined) {
    throw new BadRequest(`The body member "${field}" has both "markdown" and "document": send one of them.`);
  }
  if (input.markdown !== undefined) return checked(input.markdown, `${field}.markdown`);
  if (input.document === undefined) throw new BadRequest(`The body member "${field}" needs "markdown" (text) or "document" (a JSON document).`);
  const document = { object: 'document', data: input.document.data ?? {}, nodes: input.document.nodes } as unknown as Document;
  let markdown: string;
  try {
    markdown = renderMarkdown(document);
  } catch (error) {
    // A node without the members its type needs, or of no known type (`{}`), breaks the writer: the caller
    // sent a malformed document.
    if (error instanceof TypeError || error instanceof RangeError || error instanceof UnknownDocumentNode) {
      throw new BadRequest(`The body member "${field}.document" is not a valid document: every node needs a known "object" (block, inline, text) and the members of its type (blocks and inlines "type" and "nodes", texts "leaves").`);
    }
    throw error;
  }
  // The writer ends a document with a newline; a comment written as Markdown usually does not.
  return checked(markdown.replace(/\n+$/, ''), `${field}.document`);
}

function checked(markdown: string, field: string): string {
  if (markdown.trim() === '') throw new BadRequest(`The body member "${field}" must not be empty: a comment needs some text.`);
  if (markdown.length > MAX_COMMENT_LENGTH) {
    throw new BadRequest(`The body member "${field}" is too long: a comment holds at most ${MAX_COMMENT_LENGTH} characters of Markdown, this one ${markdown.length}.`);
  }
  return markdown;
}

/** A stored body in the format asked for: `{ document }` (the default) or `{ markdown }`. */
export function presentBody(markdown: string, format: BodyFormat | undefined): { markdown: string } | { document: Document } {
  if (format === 'markdown') return { markdown };
  return { document: parseMarkdown(markdown).document };
}

/** One emoji (with its modifiers and joiners): at least one pictograph or flag letter, nothing else. */
const EMOJI = /^[\p{Extended_Pictographic}\p{Emoji_Component}\p{Emoji_Modifier}\u200d\ufe0f\u20e3]+$/u;
const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u;

/** Checks the emoji of a reaction change; answers 400 naming the member and the position of a bad one. */
export function checkEmoji(list: string[] | undefined, field: string): string[] {
  const emoji = list ?? [];
  emoji.forEach((value, index) => {
    if (!EMOJI.test(value) || !PICTOGRAPH.test(value)) {
      throw new BadRequest(`The body member "${field}.${index}" must be an emoji, such as "👍"; got ${JSON.stringify(value)}.`);
    }
  });
  return [...new Set(emoji)];
}
