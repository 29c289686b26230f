import PDFDocument from 'pdfkit';
import { blockText } from '../content/markdown/plain-text.ts';
import { extractSections, type ContentRef, type Document } from '../content/markdown/index.ts';
import { BODY_SIZE, BodyWriter, type BodyContext, type PdfFile } from './blocks.ts';
import { registerFonts } from './fonts.ts';
import { COLORS, type LinkResolver, type LinkTarget } from './inline.ts';
import { Layout, MARGINS, PAGE_HEIGHT, PAGE_WIDTH } from './layout.ts';
import { pdfText } from './text.ts';

/**
 * A PDF of pages of a revision: a title page with the table of contents (page titles with their page
 * numbers, linked), then each page (its title, description and document) in tree order, with bookmarks
 * (the PDF outline) nested like the tree and page numbers in the footer. Every page starts on a new
 * sheet, except the first child of a group, which follows the group's title. The output depends only on
 * the input (creation date included), so equal content gives equal bytes.
 */

export interface PdfPage {
  id: string;
  title: string;
  description?: string;
  /** Depth in the printed part of the tree, from 0. */
  depth: number;
  kind: 'document' | 'group';
  /** The page's body; null for a group or an empty page. */
  document: Document | null;
}

export interface PdfInput {
  /** The space the pages belong to (links to other spaces are not followed). */
  spaceId: string;
  title: string;
  subtitle?: string;
  /** Written as the PDF's creation date. */
  createdAt: Date;
  /** The pages to print, in reading order. */
  pages: PdfPage[];
  /** Titles of every page of the revision, to name links and content references. */
  pageTitles: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, PdfFile>;
  /** Bytes of the PNG and JPEG files that may be embedded, by file id. */
  images: ReadonlyMap<string, Buffer>;
  /** Told of each page whose body could not be drawn and was printed as plain text instead. */
  onFallback?: (pageId: string, error: Error) => void;
}

export function pageDestination(pageId: string): string {
  return `page:${pageId}`;
}

export function anchorDestination(pageId: string, anchor: string): string {
  return `page:${pageId}#${anchor}`;
}

const TOC_LINE = 17;
const TITLE_SIZE = 22;

/** Adds a bookmark that opens the current page at `y` (the typings only know `expanded`). */
function addBookmark(parent: PDFKit.PDFOutline, title: string, y: number, expanded: boolean): PDFKit.PDFOutline {
  const addItem = parent.addItem as (title: string, options: { expanded: boolean; top: number; left: number }) => PDFKit.PDFOutline;
  // pdfkit places the view at (page width − left, page height − top).
  return addItem.call(parent, title, { expanded, top: Math.max(0, y - 6), left: PAGE_WIDTH });
}

/** Gives the event loop a turn between pages, so a long PDF does not hold up other requests. */
function pause(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export async function renderPdf(input: PdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [PAGE_WIDTH, PAGE_HEIGHT],
    margins: MARGINS,
    bufferPages: true,
    autoFirstPage: false,
    displayTitle: true,
    info: { Title: input.title, ...(input.subtitle ? { Subject: input.subtitle } : {}), Creator: 'Quire', Producer: 'Quire', CreationDate: input.createdAt },
  });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const layout = new Layout(doc);
  const printed = new Set(input.pages.map((page) => page.id));
  const anchors = new Map(input.pages.map((page) => [page.id, page.document ? headingAnchors(page.document) : []]));
  // One page prints alone; several (or none) get a title page and a table of contents.
  const withContents = input.pages.length !== 1;

  // Title page and table of contents: laid out now, filled in once the page numbers are known.
  const contents = withContents ? frontMatter(layout, input) : [];

  const starts = new Map<string, number>();
  const writer = new BodyWriter(layout, bodyContext(input, input.pages[0]?.id ?? '', printed, anchors));
  const bookmarks: PDFKit.PDFOutline[] = [doc.outline];
  for (const [index, page] of input.pages.entries()) {
    const previous = input.pages[index - 1];
    const followsGroup = previous?.kind === 'group' && page.depth === previous.depth + 1;
    if (followsGroup) {
      layout.gap(22);
      layout.ensure(TITLE_SIZE * 3 + BODY_SIZE * 6);
    } else layout.newPage();

    layout.destination(pageDestination(page.id));
    starts.set(page.id, layout.page);
    const level = Math.min(page.depth, bookmarks.length - 1);
    bookmarks.length = level + 1;
    bookmarks.push(addBookmark(bookmarks[level], page.title, layout.y, page.depth === 0));

    const size = page.kind === 'group' ? TITLE_SIZE + 2 : TITLE_SIZE;
    layout.writeRuns([{ text: pdfText(page.title), font: 'sans-bold', size, color: page.kind === 'group' ? COLORS.link : COLORS.text }], { lineGap: 2 });
    if (page.description) {
      layout.gap(4);
      layout.writeRuns([{ text: pdfText(page.description), font: 'sans', size: 11.5, color: COLORS.muted }]);
    }
    layout.horizontalRule(layout.frame.left, layout.y + 6, layout.frame.width);
    layout.y += 16;

    if (page.document && page.document.nodes.length > 0) {
      writer.setContext(bodyContext(input, page.id, printed, anchors));
      try {
        writer.blocks(page.document.nodes);
      } catch (error) {
        // One page the renderer cannot draw must not cost the reader the whole PDF: it is printed as text.
        if (!(error instanceof Error)) throw error;
        input.onFallback?.(page.id, error);
        printAsText(layout, page.document);
      }
    }
    await pause();
  }

  layout.drawOverlays();
  const total = layout.page + 1;
  for (const entry of contents) entry.fill(starts.get(entry.pageId) ?? 0);
  footers(layout, input, withContents, total);
  doc.end();
  return finished;
}

/**
 * A page's body as plain text, one paragraph per block, in the body font; a line the PDF's fonts cannot
 * lay out either is printed in the PDF's built-in Helvetica, in its Latin-1 characters.
 */
function printAsText(layout: Layout, document: Document): void {
  const lines = document.nodes.flatMap((block) => {
    try {
      return blockText(block);
    } catch (error) {
      // A block with no text reading (one this version does not know) is left out; the rest still prints.
      if (error instanceof Error) return [];
      throw error;
    }
  });
  for (const line of lines) {
    if (!line.trim()) continue;
    layout.gap(6);
    try {
      layout.writeRuns([{ text: pdfText(line), font: 'sans', size: BODY_SIZE, color: COLORS.text }]);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      const { doc } = layout;
      doc.font('Helvetica').fontSize(BODY_SIZE).fillColor(COLORS.text);
      doc.text(line.replace(/[^\x20-\x7e\xa0-\xff]/g, '?'), layout.frame.left, layout.y, { width: layout.frame.width });
      layout.y = doc.y;
    }
  }
}

/** The anchors of a page's top-level headings, in order, exactly as links and search name them. */
function headingAnchors(document: Document): string[] {
  try {
    return extractSections(document)
      .filter((section) => section.depth > 0)
      .map((section) => section.id);
  } catch (error) {
    // A page whose body cannot be read for headings is printed as text (printAsText): no anchors into it.
    if (error instanceof Error) return [];
    throw error;
  }
}

function bodyContext(input: PdfInput, pageId: string, printed: ReadonlySet<string>, anchors: ReadonlyMap<string, string[]>): BodyContext {
  const resolve: LinkResolver = (ref: ContentRef): LinkTarget => {
    switch (ref.kind) {
      case 'url':
        return /^(https?:|mailto:)/i.test(ref.url) ? { link: ref.url } : {};
      case 'page':
        if (ref.space && ref.space !== input.spaceId) return {};
        return printed.has(ref.page) ? { goTo: pageDestination(ref.page) } : {};
      case 'anchor': {
        if (ref.space && ref.space !== input.spaceId) return {};
        const target = ref.page ?? pageId;
        if (anchors.get(target)?.includes(ref.anchor)) return { goTo: anchorDestination(target, ref.anchor) };
        return printed.has(target) ? { goTo: pageDestination(target) } : {};
      }
      default:
        return {};
    }
  };
  return {
    resolve,
    files: input.files,
    images: input.images,
    pageTitles: input.pageTitles,
    headingDestinations: (anchors.get(pageId) ?? []).map((anchor) => anchorDestination(pageId, anchor)),
  };
}

interface ContentsEntry {
  pageId: string;
  /** Writes the entry once the page it names has a page number (from 0). */
  fill(startPage: number): void;
}

/**
 * The title page, and as many pages as the table of contents needs: one line per page (long titles are
 * shortened), so how many pages it takes is known before the content is written.
 */
function frontMatter(layout: Layout, input: PdfInput): ContentsEntry[] {
  const doc = layout.doc;
  layout.newPage();
  doc.outline.addItem('Contents');
  layout.y = layout.top + 40;
  layout.writeRuns([{ text: pdfText(input.title), font: 'sans-bold', size: 26, color: COLORS.text }], { lineGap: 3 });
  if (input.subtitle) {
    layout.gap(8);
    layout.writeRuns([{ text: pdfText(input.subtitle), font: 'sans', size: 13, color: COLORS.muted }]);
  }
  layout.gap(30);
  layout.writeRuns([{ text: 'Contents', font: 'sans-bold', size: 15, color: COLORS.text }]);
  layout.horizontalRule(layout.frame.left, layout.y + 4, layout.frame.width);
  layout.y += 14;

  if (input.pages.length === 0) layout.writeRuns([{ text: 'There are no pages yet.', font: 'sans-italic', size: BODY_SIZE, color: COLORS.muted }]);
  const { left, width } = layout.frame;
  const right = left + width;
  const entries: ContentsEntry[] = [];
  let page = layout.page;
  let y = layout.y;
  for (const item of input.pages) {
    if (y + TOC_LINE > layout.bottom) {
      layout.newPage();
      page = layout.page;
      y = layout.top;
    }
    const at = { page, y };
    entries.push({
      pageId: item.id,
      fill: (startPage) => {
        doc.switchToPage(at.page);
        const top = item.depth === 0;
        const font = top ? 'sans-bold' : 'sans';
        const size = top ? 10.5 : 10;
        const number = String(startPage + 1);
        const numberWidth = layout.widthOf(number, font, size);
        const x = left + Math.min(item.depth, 6) * 14;
        const title = layout.fit(pdfText(item.title), font, size, right - x - numberWidth - 28);
        const titleWidth = layout.widthOf(title, font, size);
        const destination = pageDestination(item.id);
        layout.writeAt(title, x, at.y, { font, size }, { goTo: destination });
        const baseline = at.y + size * 0.8;
        doc
          .save()
          .lineWidth(0.8)
          .strokeColor(COLORS.rule)
          .dash(0.8, { space: 2.5 })
          .moveTo(x + titleWidth + 6, baseline)
          .lineTo(right - numberWidth - 6, baseline)
          .stroke()
          .undash()
          .restore();
        layout.writeAt(number, right - numberWidth, at.y, { font, size }, { goTo: destination });
      },
    });
    y += TOC_LINE;
  }
  return entries;
}

/** The title of the PDF and "page / pages" at the foot of every page but the title page. */
function footers(layout: Layout, input: PdfInput, withContents: boolean, total: number): void {
  const y = PAGE_HEIGHT - MARGINS.bottom + 26;
  const { left, width } = { left: MARGINS.left, width: PAGE_WIDTH - MARGINS.left - MARGINS.right };
  for (let page = withContents ? 1 : 0; page < total; page++) {
    layout.doc.switchToPage(page);
    const number = `${page + 1} / ${total}`;
    const numberWidth = layout.widthOf(number, 'sans', 8);
    layout.horizontalRule(left, y - 6, width, COLORS.rule, 0.5);
    layout.writeAt(layout.fit(pdfText(input.title), 'sans', 8, width - numberWidth - 20), left, y, { font: 'sans', size: 8, color: COLORS.muted });
    layout.writeAt(number, left + width - numberWidth, y, { font: 'sans', size: 8, color: COLORS.muted });
  }
}
