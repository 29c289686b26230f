import { parseOptions } from '../../content/documents.ts';
import { linkWriter } from '../../content/links.ts';
import { parseMarkdown, UnknownDocumentNode, writePage, type Document } from '../../content/markdown/index.ts';
import { checkMarkdownSource, MARKDOWN_LIMITS } from '../../content/markdown/limits.ts';
import type { RevisionTree, TreePage } from '../../content/tree.ts';
import { BadRequest } from '../../errors.ts';
import type { DocumentInput } from './schemas.ts';

/**
 * A page's document written as Markdown through the one page writer (`writePage`): over the Markdown the
 * page holds, so every block the document did not change keeps its bytes (the file's own style, raw HTML,
 * blocks and inlines the editor does not model), and an edit of one paragraph changes that paragraph's
 * lines only. Links and files are named as the page's reads name them (relative to the page's file).
 */

const format = (n: number) => n.toLocaleString('en-US');

/**
 * Refuses a document nested or sized beyond what a page's Markdown may be, before the recursive writer
 * walks it (a hostile document nested thousands deep would overflow its stack). The walk is iterative.
 */
export function checkDocumentShape(document: DocumentInput): void {
  const stack: Array<[unknown, number]> = document.nodes.map((node) => [node, 1]);
  let count = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    count++;
    if (depth > MARKDOWN_LIMITS.maxTreeDepth) {
      throw new BadRequest(`The body member "document" nests its nodes more than ${MARKDOWN_LIMITS.maxTreeDepth} levels deep, the most a page may (maxTreeDepth).`);
    }
    if (count > MARKDOWN_LIMITS.maxTreeNodes) {
      throw new BadRequest(`The body member "document" has more than ${format(MARKDOWN_LIMITS.maxTreeNodes)} nodes, the most a page may (maxTreeNodes); split it into several pages.`);
    }
    if (!node || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    for (const key of ['nodes', 'leaves', 'fragments'] as const) {
      const children = record[key];
      if (Array.isArray(children)) for (const child of children) stack.push([child, depth + 1]);
    }
  }
}

/** Where a page's Markdown is written: the tree and page its links are relative to, and what it held. */
export interface BodyPlace {
  tree: RevisionTree;
  page: TreePage;
  /** The page's Markdown before the edit ('' for an empty or new page). */
  previous: string;
  /** Where `previous` was read, when the page's file moved since (its relative links start from there). */
  readFrom?: { tree: RevisionTree; page: TreePage };
}

/** The options that read the previous Markdown and write the new one, from the old file and the new. */
function writeOptions(place: BodyPlace) {
  const from = place.readFrom ?? place;
  return {
    previous: place.previous,
    parse: parseOptions(from.tree, from.page),
    refUrl: linkWriter(place.tree, place.page),
    ...(place.readFrom ? { previousRender: { refUrl: linkWriter(from.tree, from.page) } } : {}),
  };
}

/**
 * The page's Markdown with its links written from where its file is now: the same content, and only the
 * lines holding a link that moved change. For a page whose file moved, and for the pages that link to one.
 */
export function relinkedMarkdown(place: BodyPlace & { readFrom: { tree: RevisionTree; page: TreePage } }): string {
  if (!place.previous) return place.previous;
  const options = writeOptions(place);
  return writePage(parseMarkdown(place.previous, options.parse).document, options);
}

/** Writes `document` as the page's Markdown over what it held; refuses a malformed document or a page over the limits. */
export function documentMarkdown(document: DocumentInput, place: BodyPlace): string {
  checkDocumentShape(document);
  const full = { object: 'document', data: document.data ?? {}, nodes: document.nodes } as unknown as Document;
  let markdown: string;
  try {
    markdown = writePage(full, writeOptions(place));
  } catch (error) {
    // A node without the members its type needs, or of no known type, breaks the writer: the caller sent
    // a malformed document (a node it did not change would have been written back as it came).
    if (error instanceof TypeError || error instanceof RangeError || error instanceof UnknownDocumentNode) {
      throw new BadRequest(
        `The body member "document" is not a valid document: every node needs a known "object" (block, inline, text) and the members of its type (blocks and inlines "type" and "nodes", texts "leaves"). Send back the nodes of GET …/content/page/{pageId}?format=document you did not change as they came.`,
      );
    }
    throw error;
  }
  // The written page must be one the reads can read again: its length (413) and the bounds of its lines
  // (400); its depth and size were bounded by checkDocumentShape.
  checkMarkdownSource(markdown);
  return markdown;
}
