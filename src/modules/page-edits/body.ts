import { parseOptions } from '../../content/documents.ts';
import { linkWriter } from '../../content/links.ts';
import { UnknownDocumentNode, writePage, type Document } from '../../content/markdown/index.ts';
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
}

/** Writes `document` as the page's Markdown over what it held; refuses a malformed document or a page over the limits. */
export function documentMarkdown(document: DocumentInput, place: BodyPlace): string {
  checkDocumentShape(document);
  const parse = parseOptions(place.tree, place.page);
  const full = { object: 'document', data: document.data ?? {}, nodes: document.nodes } as unknown as Document;
  let markdown: string;
  try {
    markdown = writePage(full, { previous: place.previous, parse, refUrl: linkWriter(place.tree, place.page) });
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
