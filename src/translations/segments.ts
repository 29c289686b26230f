/**
 * A page's document as segments for an engine, and back. Segments come from the document model, not from
 * Markdown text: every run of inline content (paragraphs, headings, list items, table cells, hints, captions,
 * annotations' notes …) is one segment, and the text fields readers see (alt texts, tab and column titles,
 * button labels, image captions) are segments of their own. Code blocks, math, OpenAPI and integration
 * blocks, reusable contents and expressions are never sent. Inside a segment, marks and links wrap their
 * text in `<x id="n">…</x>`; code spans, keys (`<kbd>`), inline nodes (math, mentions, emoji, images, buttons) and glossary
 * terms are `<x id="n"/>`: they come back exactly as they were (terms as the glossary renders them).
 * A segment whose placeholders the engine lost or duplicated keeps its source text.
 */
import { leaf, normalizeInlines, sameMark, sortMarks, type InlinePiece } from '../content/markdown/nodes.ts';
import type { Document, DocumentLeaf, DocumentMark, InlineContent } from '../content/markdown/index.ts';
import type { GlossaryTerm } from './glossary.ts';

type Node = Record<string, unknown> & { object?: string; type?: string };

/** Blocks (and their content) that are never translated. */
const UNTRANSLATED = new Set(['code', 'code-line', 'math', 'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'integration', 'reusable-content', 'expression', 'inline-math']);

/** Text fields of a node's `data` that readers see. */
const DATA_FIELDS: Record<string, string[]> = {
  image: ['alt'],
  drawing: ['alt'],
  'tabs-item': ['title'],
  update: ['title'],
  button: ['label'],
  'inline-image': ['caption'],
};

type Placeholder =
  | { kind: 'marks'; marks: DocumentMark[] }
  | { kind: 'wrap'; node: Node }
  | { kind: 'void'; piece: InlinePiece }
  | { kind: 'term'; text: string };

interface Slot {
  source: string;
  placeholders: Map<number, Placeholder>;
  apply(pieces: InlinePiece[]): void;
}

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function decodeText(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#39|#x27|nbsp);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'", nbsp: '\u00a0' })[name] ?? _m);
}

/** Words of a segment, as counted in the statistics: what is left of its text once tags are dropped. */
export function countWords(segment: string): number {
  return decodeText(segment.replace(/<[^>]*>/g, ' ')).split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** The segments of one page and how to put their translations back. */
export class PageSegments {
  private readonly slots: Slot[] = [];
  private next = 0;

  constructor(private readonly glossary: GlossaryTerm[] = []) {}

  get segments(): string[] {
    return this.slots.map((slot) => slot.source);
  }

  /** Adds a plain string (a title, a description, an alt text); `set` receives its translation. */
  addString(text: string | undefined, set: (value: string) => void): void {
    if (!text || !/[\p{L}]/u.test(text)) return;
    const placeholders = new Map<number, Placeholder>();
    this.slots.push({ source: this.protect(text, placeholders), placeholders, apply: (pieces) => set(plainText(pieces)) });
  }

  /** Adds every segment of a document (which it will change in place when translations are applied). */
  addDocument(document: Document): void {
    this.walk(document as unknown as Node);
  }

  /** Puts the translations back (in the order of `segments`); answers how many segments kept their source. */
  apply(translations: string[]): number {
    let kept = 0;
    this.slots.forEach((slot, index) => {
      let pieces = rebuild(restoreSpaces(slot.source, translations[index] ?? ''), slot.placeholders);
      if (!pieces) {
        kept++;
        pieces = rebuild(slot.source, slot.placeholders)!;
      }
      slot.apply(pieces);
    });
    return kept;
  }

  private walk(node: Node): void {
    if (UNTRANSLATED.has(node.type ?? '')) return;
    const data = node.data as Record<string, unknown> | undefined;
    for (const field of DATA_FIELDS[node.type ?? ''] ?? []) {
      if (data && typeof data[field] === 'string') this.addString(data[field] as string, (value) => (data[field] = value));
    }
    if (node.type === 'table' && data?.definition && typeof data.definition === 'object') {
      for (const column of Object.values(data.definition as Record<string, Node>)) {
        if (typeof column.title === 'string') this.addString(column.title, (value) => (column.title = value));
      }
    }
    const nodes = node.nodes as Node[] | undefined;
    if (Array.isArray(nodes) && nodes.length > 0) {
      if (nodes.some((child) => child.object === 'text' || child.object === 'inline')) this.addInlines(node, nodes);
      else for (const child of nodes) this.walk(child);
    }
    for (const fragment of (node.fragments as Node[] | undefined) ?? []) this.walk(fragment);
  }

  private addInlines(owner: Node, nodes: Node[]): void {
    const placeholders = new Map<number, Placeholder>();
    const source = this.inlines(nodes, placeholders);
    if (!/[\p{L}]/u.test(source.replace(/<[^>]*>/g, ''))) return;
    this.slots.push({ source, placeholders, apply: (pieces) => (owner.nodes = normalizeInlines(pieces) as unknown as Node[]) });
  }

  private inlines(nodes: Node[], placeholders: Map<number, Placeholder>): string {
    let out = '';
    for (const node of nodes) {
      if (node.object === 'text') {
        for (const piece of (node.leaves as DocumentLeaf[]) ?? []) {
          if (piece.marks.some((mark) => mark.type === 'code' || mark.type === 'keyboard')) out += this.placeholder(placeholders, { kind: 'void', piece });
          else if (piece.marks.length) {
            const id = this.id(placeholders, { kind: 'marks', marks: piece.marks });
            out += `<x id="${id}">${this.protect(piece.text, placeholders)}</x>`;
          } else out += this.protect(piece.text, placeholders);
        }
        continue;
      }
      // Inline nodes: their own text fields and notes are segments; the node is a placeholder.
      this.walkInline(node);
      if ((node.type === 'link' || node.type === 'annotation') && Array.isArray(node.nodes)) {
        const id = this.id(placeholders, { kind: 'wrap', node });
        out += `<x id="${id}">${this.inlines(node.nodes as Node[], placeholders)}</x>`;
      } else out += this.placeholder(placeholders, { kind: 'void', piece: node as unknown as InlinePiece });
    }
    return out;
  }

  private walkInline(node: Node): void {
    const data = node.data as Record<string, unknown> | undefined;
    for (const field of DATA_FIELDS[node.type ?? ''] ?? []) {
      if (data && typeof data[field] === 'string') this.addString(data[field] as string, (value) => (data[field] = value));
    }
    for (const fragment of (node.fragments as Node[] | undefined) ?? []) this.walk(fragment);
  }

  private id(placeholders: Map<number, Placeholder>, placeholder: Placeholder): number {
    const id = ++this.next;
    placeholders.set(id, placeholder);
    return id;
  }

  private placeholder(placeholders: Map<number, Placeholder>, placeholder: Placeholder): string {
    return `<x id="${this.id(placeholders, placeholder)}"/>`;
  }

  /** Escapes text, turning glossary terms into placeholders that come back as the term's rendering. */
  private protect(text: string, placeholders: Map<number, Placeholder>): string {
    if (this.glossary.length === 0) return escapeText(text);
    let out = '';
    let rest = text;
    for (;;) {
      let best: { index: number; term: GlossaryTerm } | undefined;
      for (const term of this.glossary) {
        const index = findTerm(rest, term.source);
        if (index >= 0 && (!best || index < best.index || (index === best.index && term.source.length > best.term.source.length))) best = { index, term };
      }
      if (!best) return out + escapeText(rest);
      out += escapeText(rest.slice(0, best.index)) + this.placeholder(placeholders, { kind: 'term', text: best.term.target });
      rest = rest.slice(best.index + best.term.source.length);
    }
  }
}

/** Where a term stands in text as a whole word (case-sensitive), or -1. */
function findTerm(text: string, term: string): number {
  let from = 0;
  for (;;) {
    const index = text.indexOf(term, from);
    if (index < 0) return -1;
    const before = text[index - 1];
    const after = text[index + term.length];
    const word = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_]/u.test(char);
    if (!word(before) && !word(after)) return index;
    from = index + 1;
  }
}

/** Engines trim what they translate; the segment keeps its own leading and trailing spaces. */
function restoreSpaces(source: string, translated: string): string {
  const lead = /^\s*/.exec(source)![0];
  const trail = /\s*$/.exec(source)![0];
  return lead + translated.trim() + trail;
}

function plainText(pieces: InlinePiece[]): string {
  return pieces.map((piece) => (piece.object === 'leaf' ? piece.text : '')).join('');
}

function withMarks(pieces: InlinePiece[], marks: DocumentMark[]): InlinePiece[] {
  return pieces.map((piece) => {
    if (piece.object !== 'leaf') return piece;
    const merged = [...piece.marks];
    for (const mark of marks) if (!merged.some((m) => sameMark(m, mark))) merged.push(mark);
    return leaf(piece.text, sortMarks(merged));
  });
}

/**
 * Reads a translated segment back into inline pieces; undefined when its placeholders do not match the
 * source's (one missing, one twice, a tag left open or unknown).
 */
function rebuild(text: string, placeholders: Map<number, Placeholder>): InlinePiece[] | undefined {
  const seen = new Set<number>();
  const stack: Array<{ placeholder: Placeholder | null; pieces: InlinePiece[] }> = [{ placeholder: null, pieces: [] }];
  const top = () => stack[stack.length - 1];
  for (const match of text.matchAll(/<x\s+id="(\d+)"\s*\/>|<x\s+id="(\d+)"\s*>|<\/x\s*>|<[^>]*>|[^<]+|</g)) {
    const [token, voidId, openId] = match;
    if (voidId !== undefined || openId !== undefined) {
      const id = Number(voidId ?? openId);
      const placeholder = placeholders.get(id);
      if (!placeholder || seen.has(id)) return undefined;
      seen.add(id);
      if (voidId !== undefined) {
        if (placeholder.kind === 'void') top().pieces.push(placeholder.piece);
        else if (placeholder.kind === 'term') top().pieces.push(leaf(placeholder.text));
        else return undefined;
      } else {
        if (placeholder.kind !== 'marks' && placeholder.kind !== 'wrap') return undefined;
        stack.push({ placeholder, pieces: [] });
      }
    } else if (/^<\/x/.test(token)) {
      if (stack.length < 2) return undefined;
      const frame = stack.pop()!;
      const placeholder = frame.placeholder!;
      if (placeholder.kind === 'marks') top().pieces.push(...withMarks(frame.pieces, placeholder.marks));
      else if (placeholder.kind === 'wrap') {
        const nodes = normalizeInlines(frame.pieces) as InlineContent[];
        top().pieces.push({ ...placeholder.node, nodes } as unknown as InlinePiece);
      }
    } else if (token.startsWith('<') && token.length > 1) {
      // A tag the engine added (a <br>, a <span>): dropped, its text is kept.
      continue;
    } else top().pieces.push(leaf(decodeText(token)));
  }
  if (stack.length !== 1 || seen.size !== placeholders.size) return undefined;
  return stack[0].pieces;
}
