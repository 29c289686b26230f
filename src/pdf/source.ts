import type { Readable } from 'node:stream';
import type { Context } from '../context.ts';
import { expandIncludes, expressionScope, includedDocuments, toDocument, type Document } from '../content/documents.ts';
import { evaluateDocument } from '../content/evaluate.ts';
import type { JsonValue } from '../content/markdown/index.ts';
import { getObjects } from '../content/objects.ts';
import { walkPages, type RevisionTree, type TreePage } from '../content/tree.ts';
import { BadRequest, NotFound } from '../errors.ts';
import type { PdfFile } from './blocks.ts';
import type { PdfInput, PdfPage } from './render.ts';

/**
 * What a PDF prints, read from a revision: the pages a selection names, in reading order, with their
 * documents (expressions evaluated, as a reader sees them), and the bytes of the images they show.
 */

/** Which pages: all of them, a page with the pages under it, or one page `only`. */
export interface PdfSelection {
  pageId?: string;
  only: boolean;
}

/** At most this many pages in one PDF; a larger space is printed part by part (`page=`). */
export const MAX_PDF_PAGES = 5000;
/** Images larger than this are named, not embedded; so are images past the total. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const MAX_TOTAL_IMAGE_BYTES = 100 * 1024 * 1024;

export interface SelectedPage {
  page: TreePage;
  depth: number;
}

/**
 * The pages a selection prints. Link pages are not printed (they hold no content). An unknown page is a
 * 404; `only` without a page, or a link page asked for by itself, is a 400; too many pages is a 400.
 */
export function selectPages(tree: RevisionTree, selection: PdfSelection): SelectedPage[] {
  if (selection.only && !selection.pageId) throw new BadRequest('The query member "only" needs "page": the id of the page to print.');
  let selected: SelectedPage[];
  if (selection.pageId !== undefined) {
    const page = tree.byId.get(selection.pageId);
    if (!page) throw new NotFound(`No page "${selection.pageId}" exists in this content.`);
    if (page.node.type === 'link') throw new BadRequest(`The page "${selection.pageId}" is a link: it has no content to print.`);
    selected = selection.only ? [{ page, depth: 0 }] : withDepth([page], 0);
  } else selected = withDepth(tree.pages, 0);
  if (selected.length > MAX_PDF_PAGES) {
    throw new BadRequest(`This content has ${selected.length} pages; a PDF holds at most ${MAX_PDF_PAGES}. Ask for a part of it with "page".`);
  }
  return selected;
}

function withDepth(pages: TreePage[], depth: number): SelectedPage[] {
  return pages.flatMap((page) => (page.node.type === 'link' ? [] : [{ page, depth }, ...withDepth(page.pages, depth + 1)]));
}

export interface PdfHeading {
  spaceId: string;
  title: string;
  subtitle?: string;
  createdAt: Date;
}

/** Reads the bodies and images of the selected pages into a renderer input. */
export async function loadPdfInput(ctx: Pick<Context, 'db' | 'blobs'>, tree: RevisionTree, selected: SelectedPage[], heading: PdfHeading): Promise<PdfInput> {
  const hashes = selected.flatMap(({ page }) => (page.node.type === 'document' && page.node.body ? [page.node.body] : []));
  const bodies = hashes.length > 0 ? await getObjects(ctx, hashes) : new Map<string, string>();
  const pages: PdfPage[] = [];
  for (const { page, depth } of selected) {
    const source = page.node.type === 'document' && page.node.body ? (bodies.get(page.node.body) ?? '') : '';
    pages.push({
      id: page.node.id,
      title: page.node.title,
      ...(page.node.description ? { description: page.node.description } : {}),
      depth,
      kind: page.node.type === 'group' ? 'group' : 'document',
      document: source ? await printedDocument(ctx, tree, page, source) : null,
    });
  }

  const files = new Map<string, PdfFile>([...tree.files.values()].map((file) => [file.id, { name: file.name, contentType: file.contentType }]));
  const images = new Map<string, Buffer>();
  let total = 0;
  for (const fileId of imageFiles(pages)) {
    const file = tree.files.get(fileId);
    if (!file || !/^image\/(png|jpeg|jpg)$/i.test(file.contentType) || file.size > MAX_IMAGE_BYTES || total + file.size > MAX_TOTAL_IMAGE_BYTES) continue;
    const stream = await ctx.blobs.open(file.blob);
    if (!stream) throw new Error(`The blob ${file.blob} of file ${file.id} is missing from blob storage.`);
    const bytes = await readAll(stream);
    // Only bytes that are what the file says it is are given to the PDF writer.
    if (isPng(bytes) || isJpeg(bytes)) {
      images.set(fileId, bytes);
      total += bytes.length;
    }
  }

  const pageTitles = new Map([...walkPages(tree.pages)].map((page) => [page.node.id, page.node.title]));
  return { ...heading, pages, pageTitles, files, images };
}

/**
 * A page's document as a PDF prints it: its includes expanded, its expressions evaluated, and every `if`
 * branch kept (a PDF is exported by members, who see each branch marked with the readers it is shown to).
 */
async function printedDocument(ctx: Pick<Context, 'db'>, tree: RevisionTree, page: TreePage, source: string): Promise<Document> {
  const written = toDocument(source, tree, page, false);
  const includes = await includedDocuments(ctx, tree, written);
  return evaluateDocument(expandIncludes(written, includes), expressionScope(tree, page), { keepIfBlocks: true });
}

/** The ids of the files that image blocks show, in order of appearance. */
function imageFiles(pages: PdfPage[]): Set<string> {
  const found = new Set<string>();
  const visit = (value: JsonValue | undefined | object): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const node = value as { type?: unknown; data?: { ref?: { kind?: unknown; file?: unknown } } };
    if (node.type === 'image' && node.data?.ref?.kind === 'file' && typeof node.data.ref.file === 'string') found.add(node.data.ref.file);
    Object.values(value).forEach(visit);
  };
  for (const page of pages) if (page.document) visit(page.document.nodes);
  return found;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function isPng(bytes: Buffer): boolean {
  return bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
}

function isJpeg(bytes: Buffer): boolean {
  return bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}
