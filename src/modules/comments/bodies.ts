import { parseMarkdown, renderMarkdown, UnknownDocumentNode, type Document } from '../../content/markdown/index.ts';
import { MarkdownLimitError } from '../../content/markdown/limits.ts';
import { BadRequest } from '../../errors.ts';
import { LruCache } from '../../lru.ts';
import { INLINE_BELOW, runTask, workerTask } from '../../workers/pool.ts';
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

/**
 * The document of a body: a pure function of the Markdown, run on the worker pool (src/workers/pool.ts)
 * when the body is long, so that a body that is slow to read (an unclosed code fence, thousands of
 * headings or links) keeps the event loop answering other requests.
 */
export function commentDocument(markdown: string): Document {
  return parseMarkdown(markdown).document;
}

const COMMENT_DOCUMENT = workerTask(import.meta.url, 'commentDocument', commentDocument);

/**
 * Documents of long bodies read lately, by their Markdown (weighed by its length): a body posted is read
 * once to check it and once more to answer, and a discussion is read by everyone who opens it.
 */
const documents = new LruCache<string, Document>(64, 4_000_000);

/** Counts, for tests: bodies read on the calling thread and on the worker pool. */
export const bodyReads = { inline: 0, pool: 0 };

async function readDocument(markdown: string, what: string): Promise<Document> {
  const known = documents.get(markdown);
  if (known) return known;
  if (markdown.length < INLINE_BELOW) bodyReads.inline++;
  else bodyReads.pool++;
  const document = await runTask(COMMENT_DOCUMENT, markdown, { size: markdown.length, what, errors: [MarkdownLimitError] });
  if (markdown.length >= INLINE_BELOW) documents.set(markdown, document, markdown.length);
  return document;
}

/**
 * bodyMarkdown, and the body read once as a document (on the worker pool when it is long), so that a body
 * that cannot be presented (beyond the bounds of a page, or too slow to read) is refused before it is
 * stored. Call it before the transaction: the read never holds the database.
 */
export async function readBody(input: BodyInput, field = 'body'): Promise<string> {
  const markdown = bodyMarkdown(input, field);
  try {
    await readDocument(markdown, `the Markdown of "${field}"`);
  } catch (error) {
    if (error instanceof BadRequest) throw new BadRequest(`The body member "${field}" cannot be read as a comment: ${error.message}`);
    throw error;
  }
  return markdown;
}

/** A body that can no longer be read as a document (stored before bodies were checked) as one paragraph of its text. */
function plainDocument(markdown: string): Document {
  return {
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: markdown, marks: [] }] }] }],
  } as unknown as Document;
}

/** A stored body in the format asked for: `{ document }` (the default, read on the worker pool when long) or `{ markdown }`. */
export async function presentBody(markdown: string, format: BodyFormat | undefined): Promise<{ markdown: string } | { document: Document }> {
  if (format === 'markdown') return { markdown };
  try {
    return { document: await readDocument(markdown, 'the Markdown of a comment') };
  } catch (error) {
    if (error instanceof BadRequest) return { document: plainDocument(markdown) };
    throw error;
  }
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
