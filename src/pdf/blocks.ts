import { unreachable } from '../content/markdown/nodes.ts';
import type {
  ContentRef,
  DocumentBlock,
  DocumentBlockCode,
  DocumentBlockImage,
  DocumentBlockList,
  DocumentBlockTable,
  DocumentFragment,
  HintStyle,
  InlineContent,
} from '../content/markdown/index.ts';
import { blocksText } from '../content/markdown/plain-text.ts';
import { lineHeight } from './fonts.ts';
import { COLORS, fontOf, inlineRuns, type FontName, type LinkResolver, type Run, type TextStyle } from './inline.ts';
import { startsRtl } from './lines.ts';
import type { Layout, OpenedImage } from './layout.ts';
import { pdfText } from './text.ts';

/**
 * Writes a page's document (the JSON document model of its body) into the PDF flow: headings,
 * paragraphs with their marks and links, lists (ordered, unordered, tasks; nested), code in a monospace
 * font on a light background, tables as a grid with a header row, images from the space's files, hints
 * in a box, quotes, expandables and tabs as headed sections, formulas as monospace text. Long content
 * flows over as many pages as it needs; tables repeat their header row on each page.
 */

export const BODY_SIZE = 10.5;
const PARAGRAPH_GAP = 7;
const LIST_INDENT = 18;
const HEADING_SIZES = { 'heading-1': 17, 'heading-2': 14, 'heading-3': 12 } as const;
const HINTS: Record<HintStyle, { label: string; color: string }> = {
  info: { label: 'Info', color: '#0b57d0' },
  success: { label: 'Success', color: '#1a7f37' },
  warning: { label: 'Warning', color: '#bc4c00' },
  danger: { label: 'Danger', color: '#cf222e' },
};

/** A file of the revision, as the renderer needs it. */
export interface PdfFile {
  name: string;
  contentType: string;
}

/** What the body of one page is written with: how links resolve, the revision's files and images. */
export interface BodyContext {
  resolve: LinkResolver;
  /** Every file of the revision, for names and captions. */
  files: ReadonlyMap<string, PdfFile>;
  /** The bytes of the PNG and JPEG files that may be embedded, by file id. */
  images: ReadonlyMap<string, Buffer>;
  /** Titles of the revision's pages, to name content references. */
  pageTitles: ReadonlyMap<string, string>;
  /** The destinations of the page's top-level headings, in order (see extractSections). */
  headingDestinations: string[];
}

export class BodyWriter {
  private style: TextStyle = { bold: false, italic: false, mono: false, size: BODY_SIZE, color: COLORS.text };
  private nesting = 0;
  private headingIndex = 0;
  /** Images opened once per PDF (pdfkit embeds each opened image once, wherever it is placed). */
  private readonly opened = new Map<string, OpenedImage | null>();

  constructor(
    private readonly layout: Layout,
    private context: BodyContext,
  ) {}

  /** Starts a new page body: its links and heading destinations. */
  setContext(context: BodyContext): void {
    this.context = context;
    this.headingIndex = 0;
  }

  // ── Blocks ────────────────────────────────────────────────────────────────────────────────────

  blocks(nodes: DocumentBlock[], gap = PARAGRAPH_GAP): void {
    nodes.forEach((node, index) => {
      if (index > 0) this.layout.gap(gap);
      this.block(node);
    });
  }

  private block(node: DocumentBlock): void {
    switch (node.type) {
      case 'paragraph':
        return this.paragraph(node.nodes, node.data?.align);
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        return this.heading(node.type, node.nodes);
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
        return this.list(node, 0);
      case 'list-item':
        return this.nested(() => this.blocks(node.nodes, 3));
      case 'blockquote':
        return this.quote(node.nodes);
      case 'hint':
        return this.hint(node.data.style, node.nodes);
      case 'code':
        return this.code(codeLines(node), { title: node.data.title, lineNumbers: node.data.lineNumbers === true });
      case 'code-line':
        return this.code(codeLines({ nodes: [node] }), {});
      case 'math':
        return this.code(node.data.formula.split('\n'), { title: 'Formula' });
      case 'divider':
        return this.divider();
      case 'table':
        return this.table(node);
      case 'images':
        return this.blocks(node.nodes);
      case 'image':
        return this.image(node);
      case 'file':
        return this.file(node.data.ref.file, node.fragments);
      case 'embed':
        return this.labelled('Embed', [{ text: pdfText(node.data.url), ...this.runStyle(), ...linkStyle(), link: safeUrl(node.data.url) }], node.fragments);
      case 'content-ref':
        return this.contentRef(node.data.ref);
      case 'expandable': {
        const title = node.fragments.find((fragment) => fragment.fragment === 'expandable-title');
        const body = node.fragments.find((fragment) => fragment.fragment === 'expandable-body');
        return this.section(title ? this.fragmentRuns(title) : [], body?.nodes ?? []);
      }
      case 'tabs':
        return node.nodes.forEach((item, index) => {
          if (index > 0) this.layout.gap(PARAGRAPH_GAP);
          this.section([{ text: pdfText(item.data.title ?? `Tab ${index + 1}`), ...this.runStyle({ bold: true }) }], item.nodes);
        });
      case 'tabs-item':
        return this.section([{ text: pdfText(node.data.title ?? 'Tab'), ...this.runStyle({ bold: true }) }], node.nodes);
      case 'stepper':
        return node.nodes.forEach((step, index) => {
          if (index > 0) this.layout.gap(PARAGRAPH_GAP);
          this.section([{ text: `Step ${index + 1}`, ...this.runStyle({ bold: true }) }], step.nodes);
        });
      case 'stepper-step':
      case 'column':
      case 'update':
        return this.nested(() => this.blocks(node.nodes));
      case 'columns':
        // Columns are stacked: a PDF page is read top to bottom.
        return this.blocks(node.nodes.flatMap((column) => column.nodes));
      case 'updates':
        return node.nodes.forEach((update, index) => {
          if (index > 0) this.layout.gap(PARAGRAPH_GAP);
          const title = [update.data.date, ...(update.data.tags ?? [])].filter(Boolean).join(' · ') || 'Update';
          this.section([{ text: pdfText(title), ...this.runStyle({ bold: true }) }], update.nodes);
        });
      case 'if':
        // A member's export shows every branch, each marked with the readers who see it on the site.
        return this.section([{ text: pdfText(`Shown to readers when: ${node.data.expression}`), ...this.runStyle({ italic: true, color: COLORS.muted }) }], node.nodes);
      case 'reusable-content':
        return this.note(`[Reusable content "${node.data.ref.reusableContent}"]`);
      case 'drawing':
        return node.data.ref ? this.image({ object: 'block', type: 'image', data: { ref: node.data.ref, ...(node.data.alt ? { alt: node.data.alt } : {}) }, fragments: [], isVoid: true }) : undefined;
      case 'integration':
        return this.labelled('Integration', [{ text: pdfText(`${node.data.integration}/${node.data.block}`), ...this.runStyle() }], undefined);
      case 'swagger':
      case 'openapi-operation':
        return this.labelled('API operation', [{ text: pdfText(`${node.data.method.toUpperCase()} ${node.data.path}`), ...this.runStyle({ mono: true }) }], undefined);
      case 'openapi-schemas':
        return this.labelled('API schemas', [{ text: pdfText(node.data.schemas.join(', ')), ...this.runStyle({ mono: true }) }], undefined);
      case 'openapi-webhook':
        return this.labelled('API webhook', [{ text: pdfText(`${node.data.method.toUpperCase()} ${node.data.name}`), ...this.runStyle({ mono: true }) }], undefined);
      default:
        return unreachable(node);
    }
  }

  private runStyle(overrides: Partial<TextStyle> = {}): Pick<Run, 'font' | 'size' | 'color'> {
    const style = { ...this.style, ...overrides };
    return { font: fontOf(style), size: style.size, color: style.color };
  }

  private runs(nodes: InlineContent[], style: TextStyle = this.style): Run[] {
    return inlineRuns(nodes, { style, resolve: this.context.resolve, imageLabel: (ref) => this.refLabel(ref, 'Image'), refLabel: (ref) => this.refLabel(ref, 'Link') });
  }

  private paragraph(nodes: InlineContent[], align?: 'start' | 'center' | 'end'): void {
    this.layout.writeRuns(this.runs(nodes), { align: align === 'center' ? 'center' : align === 'end' ? 'right' : 'left' });
  }

  private heading(type: keyof typeof HEADING_SIZES, nodes: InlineContent[]): void {
    const size = HEADING_SIZES[type];
    const layout = this.layout;
    layout.gap(type === 'heading-1' ? 10 : type === 'heading-2' ? 7 : 4);
    // Keep a heading with the first lines that follow it.
    layout.ensure(size * 1.4 + BODY_SIZE * 4);
    if (this.nesting === 0) {
      const destination = this.context.headingDestinations[this.headingIndex++];
      if (destination) layout.destination(destination);
    }
    layout.writeRuns(this.runs(nodes, { ...this.style, bold: true, size }), { lineGap: 1.5 });
    if (type === 'heading-1') layout.horizontalRule(layout.frame.left, layout.y + 1, layout.frame.width);
    layout.gap(3);
  }

  private nested(work: () => void): void {
    this.nesting++;
    try {
      work();
    } finally {
      this.nesting--;
    }
  }

  private list(list: DocumentBlockList, level: number): void {
    const layout = this.layout;
    const start = list.type === 'list-ordered' ? (list.data.start ?? 1) : 1;
    const markerSize = this.style.size;
    this.nested(() =>
      list.nodes.forEach((item, index) => {
        if (index > 0) layout.gap(3);
        // Room for the marker and two lines of the item, so a marker is never left alone at a page's foot.
        layout.ensure(2 * lineHeight(markerSize) + 4);
        const { left, width: frameWidth } = layout.frame;
        // An item whose text starts right-to-left has its marker on the right.
        const rtl = startsRtl(blocksText(item.nodes).join('\n'));
        const y = layout.y;
        if (list.type === 'list-tasks') {
          const box = markerSize * 0.8;
          const top = y + markerSize * 0.12;
          const boxLeft = rtl ? left + frameWidth - 3 - box : left + 3;
          layout.strokeRect(boxLeft, top, box, box, COLORS.muted, 0.8);
          if (item.data?.checked) {
            layout.doc
              .save()
              .lineWidth(1.2)
              .strokeColor(COLORS.text)
              .moveTo(boxLeft + 1.5, top + box * 0.55)
              .lineTo(boxLeft + box * 0.4, top + box - 1.5)
              .lineTo(boxLeft - 1 + box, top + 1.5)
              .stroke()
              .restore();
          }
        } else {
          const marker = list.type === 'list-ordered' ? `${start + index}.` : level % 2 === 0 ? '\u2022' : '\u2013';
          const width = layout.widthOf(marker, 'sans', markerSize);
          const near = list.type === 'list-ordered' ? LIST_INDENT - 5 - width : 4;
          const x = rtl ? left + frameWidth - near - width : left + near;
          // In a right-to-left item "1." reads from the right: the dot is drawn on the left.
          layout.writeAt(marker, x, y, { font: 'sans', size: markerSize, color: this.style.color, direction: rtl ? 'rtl' : 'ltr' });
        }
        layout.y = y;
        layout.indent(rtl ? 0 : LIST_INDENT, rtl ? LIST_INDENT : 0, () =>
          item.nodes.forEach((child, childIndex) => {
            if (childIndex > 0) layout.gap(3);
            if (child.type === 'list-ordered' || child.type === 'list-unordered' || child.type === 'list-tasks') this.list(child, level + 1);
            else this.block(child);
          }),
        );
      }),
    );
  }

  private quote(nodes: DocumentBlock[]): void {
    const layout = this.layout;
    const start = layout.mark();
    const color = this.style.color;
    this.style = { ...this.style, color: COLORS.muted };
    try {
      this.nested(() => layout.indent(14, 0, () => this.blocks(nodes)));
    } finally {
      this.style = { ...this.style, color };
    }
    this.bar(start, layout.frame.left + 2, 3, COLORS.rule);
  }

  /** A vertical bar beside a span of the flow, on every page it covers. */
  private bar(start: { page: number; y: number }, x: number, width: number, color: string): void {
    const layout = this.layout;
    for (const { page, y0, y1 } of layout.segments(start, layout.mark())) {
      layout.overlay(page, () => layout.fillRect(x, y0, width, y1 - y0, color));
    }
  }

  private hint(style: HintStyle, nodes: DocumentBlock[]): void {
    const layout = this.layout;
    const { label, color } = HINTS[style] ?? HINTS.info;
    const padding = 7;
    layout.ensure(BODY_SIZE * 4);
    const { left, width } = layout.frame;
    const start = layout.mark();
    layout.y += padding;
    layout.indent(14, 10, () => {
      layout.writeRuns([{ text: label, font: 'sans-bold', size: BODY_SIZE * 0.85, color }]);
      layout.gap(2);
      this.nested(() => this.blocks(nodes));
    });
    layout.y = Math.min(layout.y + padding, layout.bottom);
    for (const segment of layout.segments(start, layout.mark())) {
      layout.overlay(segment.page, () => {
        layout.strokeRect(left, segment.y0, width, segment.y1 - segment.y0, COLORS.rule);
        layout.fillRect(left, segment.y0, 3.5, segment.y1 - segment.y0, color);
      });
    }
  }

  /** An expandable or a tab: its title, then its content beside a thin bar. */
  private section(title: Run[], nodes: DocumentBlock[]): void {
    const layout = this.layout;
    layout.ensure(BODY_SIZE * 4);
    layout.writeRuns(title.length > 0 ? title.map((run) => ({ ...run, font: fontOf({ bold: true, italic: false, mono: run.font.startsWith('mono') }) })) : [{ text: 'Details', ...this.runStyle({ bold: true }) }]);
    layout.gap(4);
    const start = layout.mark();
    this.nested(() => layout.indent(12, 0, () => this.blocks(nodes)));
    this.bar(start, layout.frame.left + 2, 1.5, COLORS.rule);
  }

  private code(lines: string[], options: { title?: string; lineNumbers?: boolean }): void {
    const layout = this.layout;
    const size = 8.8;
    const lineHeight = size * 1.38;
    const padding = 7;
    const charWidth = size * 0.6; // JetBrains Mono: every glyph is 600/1000 of the size wide (CJK ones, in other fonts, twice that)
    const digits = String(lines.length).length;
    const gutter = options.lineNumbers ? (digits + 2) * charWidth : 0;
    const { left, width } = layout.frame;
    const perLine = Math.max(8, Math.floor((width - 2 * padding - gutter) / charWidth));
    // Long lines are wrapped by hand: the font is monospaced, so every visual line has the same height.
    const visual: Array<{ number?: string; text: string }> = [];
    lines.forEach((line, index) => {
      const text = pdfText(line).replace(/\s+$/, '');
      columnSlices(text, perLine).forEach((slice, sliceIndex) => {
        visual.push({ ...(options.lineNumbers && sliceIndex === 0 ? { number: String(index + 1).padStart(digits) } : {}), text: slice });
      });
    });
    if (options.title) {
      layout.ensure(size * 1.6 + lineHeight + 2 * padding);
      layout.writeRuns([{ text: pdfText(options.title), font: 'sans-bold', size: size, color: COLORS.muted }]);
      layout.y += 2;
    }
    let next = 0;
    while (next < visual.length) {
      if (layout.room() < lineHeight + 2 * padding) layout.newPage();
      const take = Math.min(visual.length - next, Math.floor((layout.room() - 2 * padding) / lineHeight));
      const top = layout.y;
      const height = take * lineHeight + 2 * padding;
      layout.fillRect(left, top, width, height, COLORS.codeBackground);
      for (let index = 0; index < take; index++) {
        const line = visual[next + index];
        const y = top + padding + index * lineHeight;
        if (line.number) layout.writeAt(line.number, left + padding, y, { font: 'mono', size, color: COLORS.muted });
        if (line.text) layout.writeAt(line.text, left + padding + gutter, y, { font: 'mono', size });
      }
      next += take;
      layout.y = top + height;
    }
  }

  private divider(): void {
    const layout = this.layout;
    layout.ensure(12);
    layout.horizontalRule(layout.frame.left, layout.y + 5, layout.frame.width);
    layout.y += 10;
  }

  private table(block: DocumentBlockTable): void {
    const layout = this.layout;
    const { view, definition, records } = block.data;
    const columns = view.columns.filter((id) => id in definition);
    if (columns.length === 0) return;
    const showHeader = !(view.type === 'grid' && view.hideHeader) && !(view.type === 'cards' && view.hideColumnTitle);
    const header = columns.map((id) => pdfText(definition[id].title).trim());
    const ordered = Object.values(records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
    const rows = ordered.map((record) => columns.map((id) => this.cellText(block, record.values[id])));
    const size = columns.length > 6 ? 8 : 9.5;
    const padding = 4;
    const { left, width } = layout.frame;

    // Column widths follow how much each column holds, within bounds, filling the frame.
    const weights = columns.map((_, column) => {
      const longest = Math.max(header[column].length, ...rows.map((row) => Math.max(...row[column].split('\n').map((line) => line.length))));
      return Math.min(40, Math.max(4, longest)) + 3;
    });
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const widths = weights.map((weight) => (width * weight) / total);
    const xs = widths.map((_, column) => left + widths.slice(0, column).reduce((sum, w) => sum + w, 0));
    const align = columns.map((id): 'left' | 'center' | 'right' => {
      const column = definition[id];
      if (column.type === 'text') return column.textAlignment;
      return column.type === 'number' || column.type === 'rating' ? 'right' : 'left';
    });

    const cellRuns = (text: string, font: FontName): Run[] => [{ text: text || ' ', font, size, color: this.style.color }];
    const measure = (cells: string[], font: FontName) => Math.max(...cells.map((text, column) => layout.boxHeight(cellRuns(text, font), widths[column] - 2 * padding, 1))) + 2 * padding;
    const headerHeight = showHeader ? measure(header, 'sans-bold') : 0;
    const tallest = layout.bottom - layout.top - headerHeight - 4;

    const drawRow = (cells: string[], height: number, bold: boolean) => {
      const top = layout.y;
      if (bold) layout.fillRect(left, top, width, height, COLORS.tableHeader);
      cells.forEach((text, column) => {
        layout.strokeRect(xs[column], top, widths[column], height, COLORS.rule, 0.6);
        if (!text) return;
        layout.writeBox(cellRuns(text, bold ? 'sans-bold' : 'sans'), xs[column] + padding, top + padding, widths[column] - 2 * padding, height - 2 * padding + 1, align[column], 1);
      });
      layout.y = top + height;
    };

    const firstHeight = rows.length > 0 ? Math.min(tallest, measure(rows[0], 'sans')) : 0;
    layout.ensure(headerHeight + firstHeight);
    if (showHeader) drawRow(header, headerHeight, true);
    for (const row of rows) {
      const height = Math.min(tallest, measure(row, 'sans'));
      if (layout.y + height > layout.bottom) {
        layout.newPage();
        if (showHeader) drawRow(header, headerHeight, true);
      }
      drawRow(row, height, false);
    }
  }

  /** A table cell as text: its rich text's words, or its value written out. */
  private cellText(block: DocumentBlockTable, value: unknown): string {
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') {
      const fragment = block.fragments.find((candidate) => candidate.fragment === value);
      return pdfText(fragment ? blocksText(fragment.nodes).join('\n') : value).trim();
    }
    if (typeof value === 'boolean') return value ? 'Yes' : 'No';
    if (typeof value === 'number') return String(value);
    if (Array.isArray(value)) return pdfText(value.map((item) => this.context.files.get(String(item))?.name ?? String(item)).join(', '));
    return pdfText(this.refLabel(value as ContentRef, 'Link'));
  }

  private image(block: DocumentBlockImage): void {
    const layout = this.layout;
    const ref = block.data.ref;
    const caption = fragmentsText(block.fragments) || block.data.alt || '';
    const image = ref.kind === 'file' ? this.openImage(ref.file) : null;
    if (!image) {
      const file = ref.kind === 'file' ? this.context.files.get(ref.file) : undefined;
      const why = ref.kind === 'url' ? `Image at ${ref.url}` : file ? `Image "${file.name}" (${file.contentType || 'unknown type'}): not shown in the PDF` : 'Image: missing';
      this.note(`[${why}]`, ref.kind === 'url' ? safeUrl(ref.url) : undefined, 'center');
      if (caption) this.caption(caption);
      return;
    }
    const maxWidth = layout.frame.width;
    const maxHeight = (layout.bottom - layout.top) * 0.6;
    const wanted = typeof block.data.width === 'number' ? block.data.width : image.width;
    // Pixels are shown at 3/4 of a point (96 dpi), never wider than the column nor taller than 60% of a page.
    let width = Math.min(maxWidth, Math.max(8, wanted * 0.75));
    let height = (width * image.height) / image.width;
    if (height > maxHeight) {
      width = (width * maxHeight) / height;
      height = maxHeight;
    }
    layout.ensure(height);
    const x = layout.frame.left + (maxWidth - width) / 2;
    layout.placeImage(image, x, layout.y, width, height);
    layout.y += height;
    if (caption) {
      layout.gap(3);
      this.caption(caption);
    }
  }

  /** A PNG or JPEG file opened for placing; null when it is not one, or its bytes cannot be read as one. */
  private openImage(fileId: string): OpenedImage | null {
    if (this.opened.has(fileId)) return this.opened.get(fileId)!;
    const bytes = this.context.images.get(fileId);
    let image: OpenedImage | null = null;
    if (bytes) {
      try {
        image = this.layout.openImage(bytes);
      } catch {
        // A file that says it is a PNG or JPEG but does not decode: the PDF shows its name instead.
        image = null;
      }
    }
    this.opened.set(fileId, image);
    return image;
  }

  private caption(text: string): void {
    this.layout.writeRuns([{ text: pdfText(text), ...this.runStyle({ italic: true, size: BODY_SIZE * 0.85, color: COLORS.muted }) }], { align: 'center' });
  }

  private file(fileId: string, fragments: DocumentFragment[] | undefined): void {
    const file = this.context.files.get(fileId);
    this.labelled('File', [{ text: pdfText(file ? file.name : fileId), ...this.runStyle() }], fragments);
  }

  private contentRef(ref: ContentRef): void {
    const target = this.context.resolve(ref);
    const label = this.refLabel(ref, 'Link');
    const linked = target.link || target.goTo;
    this.labelled('See', [{ text: pdfText(label), ...this.runStyle({ bold: true }), ...(linked ? { ...linkStyle(), ...target } : {}) }], undefined);
  }

  /** A short line: a muted label, then runs, then a caption from fragments. */
  private labelled(label: string, runs: Run[], fragments: DocumentFragment[] | undefined): void {
    this.layout.writeRuns([{ text: `${label}: `, ...this.runStyle({ color: COLORS.muted }) }, ...runs]);
    const caption = fragmentsText(fragments);
    if (caption) {
      this.layout.gap(2);
      this.caption(caption);
    }
  }

  private note(text: string, link?: string, align: 'left' | 'center' = 'left'): void {
    this.layout.writeRuns([{ text: pdfText(text), ...this.runStyle({ italic: true, size: BODY_SIZE * 0.9, color: COLORS.muted }), ...(link ? { link } : {}) }], { align });
  }

  private fragmentRuns(fragment: DocumentFragment): Run[] {
    const runs: Run[] = [];
    for (const node of fragment.nodes) {
      if ('nodes' in node && Array.isArray(node.nodes) && node.nodes.every((child) => typeof child === 'object' && child !== null && 'object' in child && (child.object === 'text' || child.object === 'inline'))) {
        runs.push(...this.runs(node.nodes as InlineContent[]));
      }
    }
    return runs;
  }

  /** How a reference is named in the PDF: a page's title, a file's name, a URL. */
  private refLabel(ref: ContentRef, fallback: string): string {
    switch (ref.kind) {
      case 'url':
        return ref.url;
      case 'file':
        return this.context.files.get(ref.file)?.name ?? fallback;
      case 'page':
        return this.context.pageTitles.get(ref.page) ?? fallback;
      case 'anchor':
        return ref.page ? `${this.context.pageTitles.get(ref.page) ?? fallback} #${ref.anchor}` : `#${ref.anchor}`;
      default:
        return fallback;
    }
  }
}

function linkStyle(): Pick<Run, 'color' | 'underline'> {
  return { color: COLORS.link, underline: true };
}

/** Only web and mail addresses become clickable. */
function safeUrl(url: string): string | undefined {
  return /^(https?:|mailto:)/i.test(url) ? url : undefined;
}

function fragmentsText(fragments: DocumentFragment[] | undefined): string {
  return blocksText((fragments ?? []).flatMap((fragment) => fragment.nodes)).join(' ').trim();
}

function codeLines(block: Pick<DocumentBlockCode, 'nodes'>): string[] {
  const lines = block.nodes.map((line) => line.nodes.map((node) => (node.object === 'text' ? node.leaves.map((leaf) => leaf.text).join('') : '')).join(''));
  return lines.length > 0 ? lines : [''];
}

/** Characters of East Asian scripts take two columns of a monospaced line. */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60\uffe0-\uffe6]/u;

/** A line of code cut into pieces of at most `columns` columns (at least one piece, maybe empty). */
function columnSlices(text: string, columns: number): string[] {
  const slices: string[] = [];
  let current = '';
  let used = 0;
  for (const char of text) {
    const width = WIDE.test(char) ? 2 : 1;
    if (used + width > columns && current !== '') {
      slices.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += width;
  }
  slices.push(current);
  return slices;
}
