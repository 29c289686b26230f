/**
 * Small constructors and normalisers for document nodes, shared by the reader and the writer. Inline
 * content is kept in one normal form, so that the same text always gives the same JSON: adjacent leaves
 * with the same marks are merged, marks are in a fixed order, line breaks carry no marks, empty leaves
 * are dropped, and leaves between two inlines share one text node.
 */
import type { DocumentBlockParagraph, DocumentFragment, DocumentInline, DocumentLeaf, DocumentMark, DocumentText, InlineContent } from './types.ts';

const MARK_ORDER = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript', 'color'];

export function sameMark(a: DocumentMark, b: DocumentMark): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'color' && b.type === 'color') return a.data.text === b.data.text && a.data.background === b.data.background;
  return true;
}

/** Marks without duplicates, in the fixed order. */
export function sortMarks(marks: DocumentMark[]): DocumentMark[] {
  const unique = marks.filter((mark, index) => marks.findIndex((other) => sameMark(other, mark)) === index);
  return unique.sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type));
}

function sameMarks(a: DocumentMark[], b: DocumentMark[]): boolean {
  return a.length === b.length && a.every((mark, index) => sameMark(mark, b[index]));
}

export function leaf(text: string, marks: DocumentMark[] = []): DocumentLeaf {
  return { object: 'leaf', text, marks };
}

export function textNode(text: string, marks: DocumentMark[] = []): DocumentText {
  return { object: 'text', leaves: [leaf(text, marks)] };
}

/** One piece of inline content on its way into the normal form. */
export type InlinePiece = DocumentLeaf | DocumentInline;

/** Puts pieces into the normal form; the result is never empty (an empty text stands for no content). */
export function normalizeInlines(pieces: InlinePiece[]): InlineContent[] {
  const out: InlineContent[] = [];
  let leaves: DocumentLeaf[] = [];
  const flush = () => {
    if (leaves.length > 0) out.push({ object: 'text', leaves });
    leaves = [];
  };
  for (const piece of pieces) {
    if (piece.object !== 'leaf') {
      flush();
      out.push(piece);
      continue;
    }
    // A line break carries no marks: Markdown cannot end a mark's run with one.
    for (const part of piece.text.split(/(\n)/)) {
      if (part === '') continue;
      const marks = part === '\n' ? [] : sortMarks(piece.marks);
      const last = leaves[leaves.length - 1];
      if (last && sameMarks(last.marks, marks)) last.text += part;
      else leaves.push(leaf(part, marks));
    }
  }
  flush();
  return out.length > 0 ? out : [textNode('')];
}

/** Drops line breaks at the end of a block's content: Markdown cannot end a paragraph with one. */
export function trimTrailingBreaks(pieces: InlinePiece[]): InlinePiece[] {
  const out = [...pieces];
  while (out.length > 0) {
    const last = out[out.length - 1];
    if (last.object !== 'leaf' || (last.text !== '' && !/\n\s*$/.test(last.text))) break;
    const text = last.text.replace(/\n\s*$/, '');
    if (text === '') out.pop();
    else {
      out[out.length - 1] = leaf(text, last.marks);
      break;
    }
  }
  return out;
}

/** Whether inline content is nothing but empty text. */
export function isEmptyInline(nodes: InlineContent[]): boolean {
  return nodes.every((node) => node.object === 'text' && node.leaves.every((l) => l.text === ''));
}

/** The pieces of inline content, leaves spread out of their text nodes. */
export function inlinePieces(nodes: InlineContent[]): InlinePiece[] {
  return nodes.flatMap((node): InlinePiece[] => (node.object === 'text' ? node.leaves : [node]));
}

export function paragraph(nodes: InlineContent[] = [textNode('')]): DocumentBlockParagraph {
  return { object: 'block', type: 'paragraph', data: {}, nodes };
}

export function fragment(name: string, nodes: DocumentFragment['nodes'], type?: string): DocumentFragment {
  return type === undefined ? { object: 'fragment', fragment: name, nodes } : { object: 'fragment', fragment: name, type, nodes };
}

/** The plain text of inline content. */
export function inlineText(nodes: InlineContent[]): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return node.leaves.map((l) => l.text).join('');
      switch (node.type) {
        case 'link':
        case 'annotation':
          return inlineText(node.nodes);
        case 'inline-math':
          return node.data.formula;
        case 'inline-image':
          return node.data.caption ?? '';
        case 'button':
          return node.data.label;
        case 'emoji':
          return emojiText(node.data.code);
        case 'icon':
        case 'mention':
        case 'expression':
          return '';
        default:
          return unreachable(node);
      }
    })
    .join('');
}

/** An emoji's characters from its code points ("1f44b", "1f1eb-1f1f7"). */
export function emojiText(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((part) => parseInt(part, 16)));
  } catch {
    return '';
  }
}

/** A node of a type the writer does not know: a document sent by a client that is not well formed. */
export class UnknownDocumentNode extends Error {}

/** The exhaustive end of a walk over the document's nodes: a type left out fails to compile. */
export function unreachable(node: never): never {
  throw new UnknownDocumentNode(`Unknown document node: ${JSON.stringify(node).slice(0, 200)}`);
}

/** Whether inline content is empty or only whitespace. */
export function isBlankInline(nodes: InlineContent[]): boolean {
  return nodes.every((node) => node.object === 'text' && node.leaves.every((l) => l.text.trim() === ''));
}
