import { emojiText } from '../content/markdown/nodes.ts';
import { unreachable } from '../content/markdown/nodes.ts';
import type { ContentRef, DocumentMark, InlineContent, MarkColor } from '../content/markdown/index.ts';
import type { FontStyle } from './fonts.ts';
import { pdfText } from './text.ts';

/**
 * Inline content (text with marks, links, inline math, inline images) as runs of text of one style,
 * ready to be written one after the other on the lines of a paragraph.
 */

/** A font style; fonts.ts picks the fonts that print it, script by script. */
export type FontName = FontStyle;

export interface TextStyle {
  bold: boolean;
  italic: boolean;
  mono: boolean;
  size: number;
  color: string;
}

export interface Run {
  text: string;
  font: FontName;
  size: number;
  color: string;
  /** An external address (http, https, mailto). */
  link?: string;
  /** A named destination inside the PDF (a page or a heading). */
  goTo?: string;
  underline?: boolean;
  strike?: boolean;
}

export const COLORS = {
  text: '#1f2328',
  muted: '#59636e',
  link: '#0b57d0',
  code: '#b3245b',
  rule: '#d0d7de',
  codeBackground: '#f4f6f8',
  tableHeader: '#eef1f4',
};

const MARK_COLORS: Partial<Record<MarkColor, string>> = {
  green: '#1a7f37',
  blue: '#0b57d0',
  red: '#cf222e',
  orange: '#bc4c00',
  yellow: '#9a6700',
  purple: '#8250df',
  $primary: '#0b57d0',
  $info: '#0b57d0',
  $success: '#1a7f37',
  $warning: '#9a6700',
  $danger: '#cf222e',
};

export function fontOf(style: Pick<TextStyle, 'bold' | 'italic' | 'mono'>): FontName {
  const family = style.mono ? 'mono' : 'sans';
  if (style.bold && style.italic) return `${family}-bold-italic`;
  if (style.bold) return `${family}-bold`;
  if (style.italic) return `${family}-italic`;
  return family;
}

/** Where a reference leads inside the PDF, if anywhere: a named destination or an external address. */
export interface LinkTarget {
  link?: string;
  goTo?: string;
}
export type LinkResolver = (ref: ContentRef) => LinkTarget;

interface RunOptions {
  style: TextStyle;
  resolve: LinkResolver;
  /** Shown in place of an inline image: its caption or file name. */
  imageLabel: (ref: ContentRef) => string;
  /** The name of a reference's target (a page's title), for mentions. */
  refLabel: (ref: ContentRef) => string;
}

function applyMarks(style: TextStyle, marks: DocumentMark[]): TextStyle & { underline?: boolean; strike?: boolean } {
  const next: TextStyle & { underline?: boolean; strike?: boolean } = { ...style };
  for (const mark of marks) {
    switch (mark.type) {
      case 'bold':
        next.bold = true;
        break;
      case 'italic':
        next.italic = true;
        break;
      case 'code':
      case 'keyboard':
        next.mono = true;
        next.color = COLORS.code;
        next.size = style.size * 0.95;
        break;
      case 'strikethrough':
        next.strike = true;
        break;
      case 'superscript':
      case 'subscript':
        next.size = style.size * 0.75;
        break;
      case 'color': {
        const color = MARK_COLORS[mark.data.text];
        if (color) next.color = color;
        break;
      }
    }
  }
  return next;
}

function run(text: string, style: TextStyle & { underline?: boolean; strike?: boolean }, target: LinkTarget = {}): Run {
  const linked = Boolean(target.link || target.goTo);
  return {
    text: pdfText(text),
    font: fontOf(style),
    size: style.size,
    color: linked && style.color === COLORS.text ? COLORS.link : style.color,
    ...(target.link ? { link: target.link } : {}),
    ...(target.goTo ? { goTo: target.goTo } : {}),
    ...(style.underline || linked ? { underline: true } : {}),
    ...(style.strike ? { strike: true } : {}),
  };
}

/** The runs of some inline content, in reading order. */
export function inlineRuns(nodes: InlineContent[], options: RunOptions, target: LinkTarget = {}): Run[] {
  const runs: Run[] = [];
  for (const node of nodes) {
    if (node.object === 'text') {
      for (const leaf of node.leaves) if (leaf.text !== '') runs.push(run(leaf.text, applyMarks(options.style, leaf.marks), target));
      continue;
    }
    switch (node.type) {
      case 'link': {
        const resolved = options.resolve(node.data.ref);
        runs.push(...inlineRuns(node.nodes, options, resolved.link || resolved.goTo ? resolved : target));
        break;
      }
      case 'inline-math':
        runs.push(run(node.data.formula, { ...options.style, mono: true, size: options.style.size * 0.95 }, target));
        break;
      case 'inline-image':
        runs.push(run(`[${options.imageLabel(node.data.ref)}]`, { ...options.style, italic: true, color: COLORS.muted }, target));
        break;
      case 'annotation':
        runs.push(...inlineRuns(node.nodes, options, target));
        break;
      case 'mention': {
        const resolved = options.resolve(node.data.ref);
        runs.push(run(options.refLabel(node.data.ref), options.style, resolved.link || resolved.goTo ? resolved : target));
        break;
      }
      case 'button': {
        const resolved = options.resolve(node.data.ref);
        runs.push(run(node.data.label, { ...options.style, bold: true }, resolved.link || resolved.goTo ? resolved : target));
        break;
      }
      case 'emoji':
        runs.push(run(emojiText(node.data.code), options.style, target));
        break;
      case 'icon':
      case 'expression':
        // Icons have no glyph in the PDF's fonts; expressions are evaluated before the PDF is made.
        break;
      default:
        unreachable(node);
    }
  }
  return runs.filter((candidate) => candidate.text !== '');
}
