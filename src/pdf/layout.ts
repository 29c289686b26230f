import { featuresOf, useFont } from './fonts.ts';
import { COLORS, type FontName, type Run } from './inline.ts';
import { breakLines, drawLine, faceRuns, hasRtl, textWidth } from './lines.ts';

/**
 * The page geometry of Quire's PDFs and the small layout engine over pdfkit that the renderer writes
 * through: a stack of frames (the left edge and width of the current column: list items and hints
 * indent it), page breaks, text runs, and overlays (lines and boxes that are drawn over finished pages,
 * such as the box around a hint that spans two pages).
 */
export type Doc = PDFKit.PDFDocument;

/** A4, in points. */
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
export const MARGINS = { top: 60, bottom: 66, left: 62, right: 62 };

export interface Frame {
  left: number;
  width: number;
}

/** A span of the flow from one place to another, possibly over several pages. */
export interface Mark {
  page: number;
  y: number;
}

/** What pdfkit exposes for images but its type definitions leave out. */
export interface OpenedImage {
  width: number;
  height: number;
}
interface ImageOpener {
  openImage(src: Buffer): OpenedImage;
}

export class Layout {
  private readonly frames: Frame[];
  private readonly overlays: Array<{ page: number; draw: () => void }> = [];

  constructor(readonly doc: Doc) {
    this.frames = [{ left: MARGINS.left, width: PAGE_WIDTH - MARGINS.left - MARGINS.right }];
  }

  get frame(): Frame {
    return this.frames[this.frames.length - 1];
  }

  get top(): number {
    return MARGINS.top;
  }

  get bottom(): number {
    return PAGE_HEIGHT - MARGINS.bottom;
  }

  /** The page being written (always the last one while the flow is written), from 0. */
  get page(): number {
    return this.doc.bufferedPageRange().count - 1;
  }

  get y(): number {
    return this.doc.y;
  }

  set y(value: number) {
    this.doc.y = value;
  }

  mark(): Mark {
    return { page: this.page, y: this.doc.y };
  }

  /** Room left on this page. */
  room(): number {
    return this.bottom - this.doc.y;
  }

  atTop(): boolean {
    return this.doc.y <= this.top + 0.5;
  }

  newPage(): void {
    this.doc.addPage();
    this.doc.y = this.top;
  }

  /** Starts a new page unless `height` fits on this one (or this page is still empty). */
  ensure(height: number): void {
    if (this.doc.y + height > this.bottom && !this.atTop()) this.newPage();
  }

  /** Moves down; never past the bottom of the page (the next block breaks the page instead). */
  gap(points: number): void {
    if (this.atTop()) return;
    this.doc.y = Math.min(this.doc.y + points, this.bottom);
  }

  /** Writes `work` in a narrower frame: `left` points in from the current left edge, `right` from the right. */
  indent<T>(left: number, right: number, work: () => T): T {
    const frame = this.frame;
    this.frames.push({ left: frame.left + left, width: Math.max(40, frame.width - left - right) });
    try {
      return work();
    } finally {
      this.frames.pop();
    }
  }

  /** Registers a drawing for a page, made once the flow is written (so it may surround what follows it). */
  overlay(page: number, draw: () => void): void {
    this.overlays.push({ page, draw });
  }

  /** The part of each page that a span of the flow covers. */
  segments(start: Mark, end: Mark): Array<{ page: number; y0: number; y1: number }> {
    const parts: Array<{ page: number; y0: number; y1: number }> = [];
    for (let page = start.page; page <= end.page; page++) {
      const y0 = page === start.page ? start.y : this.top - 4;
      const y1 = page === end.page ? end.y : this.bottom + 4;
      if (y1 - y0 >= 2) parts.push({ page, y0, y1 });
    }
    return parts;
  }

  /** Draws the overlays on their pages, then comes back to the last page. */
  drawOverlays(): void {
    const last = this.page;
    for (const { page, draw } of this.overlays) {
      this.doc.switchToPage(page);
      draw();
    }
    this.overlays.length = 0;
    this.doc.switchToPage(last);
  }

  /**
   * Writes runs of text as one paragraph in the current frame, wrapping and breaking pages as needed.
   * A paragraph with right-to-left letters goes through the bidi layout (lines.ts), and one whose first
   * strong character is right-to-left is aligned to the right (its "start"); others are written by
   * pdfkit's own line wrapping, each run split into the fonts that print it.
   */
  writeRuns(runs: Run[], paragraph: { align?: 'left' | 'center' | 'right'; lineGap?: number } = {}): void {
    const parts = runs.filter((run) => run.text !== '');
    if (parts.length === 0) return;
    const doc = this.doc;
    const lineGap = paragraph.lineGap ?? 2.5;
    useFont(doc, faceRuns([parts[0]])[0].face, parts[0].size);
    this.ensure(doc.currentLineHeight(true) + 2);
    const { left, width } = this.frame;
    if (hasRtl(parts.map((run) => run.text).join(''))) {
      const { lines, rtl } = breakLines(doc, parts, width, lineGap);
      const align = rtl ? ({ left: 'right', right: 'left', center: 'center' } as const)[paragraph.align ?? 'left'] : (paragraph.align ?? 'left');
      for (const line of lines) {
        if (doc.y + line.height > this.bottom && !this.atTop()) this.newPage();
        const x = align === 'right' ? left + width - line.width : align === 'center' ? left + (width - line.width) / 2 : left;
        const y = doc.y;
        drawLine(doc, line, x, y);
        doc.y = y + line.height;
      }
      doc.x = left;
      doc.fillColor(COLORS.text);
      return;
    }
    const pieces = faceRuns(parts);
    pieces.forEach((run, index) => {
      useFont(doc, run.face, run.size);
      doc.fillColor(run.color);
      // Options carry over from one continued call to the next unless set, so every run sets all of them
      // (null: no link on this run).
      const options = {
        features: featuresOf(run.face),
        continued: index < pieces.length - 1,
        link: run.link ?? null,
        goTo: run.goTo ?? null,
        underline: Boolean(run.underline),
        strike: Boolean(run.strike),
        align: paragraph.align ?? 'left',
        lineGap,
      } as PDFKit.Mixins.TextOptions;
      if (index === 0) doc.text(run.text, left, doc.y, { ...options, width });
      else doc.text(run.text, options);
    });
    doc.fillColor(COLORS.text);
  }

  /** Writes one line of text at a place, without wrapping or breaking pages. */
  writeAt(text: string, x: number, y: number, style: { font: FontName; size: number; color?: string; direction?: 'ltr' | 'rtl' }, options: { link?: string; goTo?: string } = {}): void {
    const doc = this.doc;
    const keep = doc.y;
    const { lines } = breakLines(doc, [{ text: text.replace(/\n/g, ' '), font: style.font, size: style.size, color: style.color ?? COLORS.text, ...options }], Infinity, 0, style.direction);
    for (const line of lines) drawLine(doc, line, x, y);
    doc.y = keep;
    doc.fillColor(COLORS.text);
  }

  /** Writes runs in a box (a table cell): wrapped to its width, lines that do not fit its height left out. */
  writeBox(runs: Run[], x: number, y: number, width: number, height: number, align: 'left' | 'center' | 'right', lineGap: number): void {
    const doc = this.doc;
    const keep = doc.y;
    const { lines, rtl } = breakLines(doc, runs, width, lineGap);
    const side = rtl && align === 'left' ? 'right' : align;
    let top = y;
    for (const line of lines) {
      if (top + line.height - lineGap > y + height + 0.5) break;
      drawLine(doc, line, side === 'right' ? x + width - line.width : side === 'center' ? x + (width - line.width) / 2 : x, top);
      top += line.height;
    }
    doc.y = keep;
    doc.fillColor(COLORS.text);
  }

  /** The height of runs written in a box of a width (see writeBox). */
  boxHeight(runs: Run[], width: number, lineGap: number): number {
    const { lines } = breakLines(this.doc, runs, width, lineGap);
    return lines.reduce((sum, line) => sum + line.height, 0) - lineGap;
  }

  /** The width of a text in a font and size. */
  widthOf(text: string, font: FontName, size: number): number {
    return textWidth(this.doc, text, font, size);
  }

  /** Shortens a text with an ellipsis until it fits in `width`. */
  fit(text: string, font: FontName, size: number, width: number): string {
    if (this.widthOf(text, font, size) <= width) return text;
    let low = 0;
    let high = text.length;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (this.widthOf(`${text.slice(0, middle).trimEnd()}\u2026`, font, size) <= width) low = middle;
      else high = middle - 1;
    }
    return `${text.slice(0, low).trimEnd()}\u2026`;
  }

  /** Reads an image's header (PNG or JPEG) into an object pdfkit can place, any number of times. */
  openImage(bytes: Buffer): OpenedImage {
    return (this.doc as unknown as ImageOpener).openImage(bytes);
  }

  /** Places an image opened by openImage. */
  placeImage(image: OpenedImage, x: number, y: number, width: number, height: number): void {
    this.doc.image(image as unknown as Buffer, x, y, { width, height });
  }

  /** A named destination at the current place, for links and the table of contents. */
  destination(name: string): void {
    this.doc.addNamedDestination(name, 'XYZ', null, PAGE_HEIGHT - Math.max(0, this.doc.y - 6), null);
  }

  horizontalRule(x: number, y: number, width: number, color: string = COLORS.rule, thickness = 0.75): void {
    this.doc.save().lineWidth(thickness).strokeColor(color).moveTo(x, y).lineTo(x + width, y).stroke().restore();
  }

  fillRect(x: number, y: number, width: number, height: number, color: string): void {
    this.doc.save().rect(x, y, width, height).fillColor(color).fill().restore();
    this.doc.fillColor(COLORS.text);
  }

  strokeRect(x: number, y: number, width: number, height: number, color: string, thickness = 0.75): void {
    this.doc.save().lineWidth(thickness).rect(x, y, width, height).strokeColor(color).stroke().restore();
  }
}
