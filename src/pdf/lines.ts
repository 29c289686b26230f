import bidiFactory from 'bidi-js';
import LineBreaker from 'linebreak';
import { faceSpans, featuresOf, hanPreference, lineHeight, useFont, type FaceName, type FontStyle } from './fonts.ts';
import type { Run } from './inline.ts';

/**
 * Lines of text in any direction: runs of styled text are split into the fonts that print them
 * (fonts.ts), broken into lines where the Unicode line breaking rules allow (UAX #14, the `linebreak`
 * package pdfkit itself uses), and each line is put in visual order by the Unicode bidirectional
 * algorithm (UAX #9, `bidi-js`): right-to-left stretches are drawn from right to left, numbers and Latin
 * words inside them from left to right. fontkit shapes each piece (Arabic joining forms, Devanagari
 * conjuncts) and itself reverses the glyphs of a piece in a right-to-left script, so a piece is handed to
 * it in logical order.
 */

const bidi = bidiFactory();

/** Letters of the right-to-left scripts (their presence makes a paragraph go through the bidi layout). */
const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

export function hasRtl(text: string): boolean {
  return RTL_LETTER.test(text);
}

/** Whether a text's first strong character is right-to-left (its paragraphs then start on the right). */
export function startsRtl(text: string): boolean {
  return ((bidi.getEmbeddingLevels(text).paragraphs[0]?.level ?? 0) & 1) === 1;
}

/** A piece of a line: one font, one style, one direction. */
export interface Piece extends Omit<Run, 'font' | 'text'> {
  text: string;
  face: FaceName;
  level: number;
  width: number;
}

export interface Line {
  /** In visual order, left to right. */
  pieces: Piece[];
  width: number;
  /** The line's height, its gap to the next line included. */
  height: number;
}

export interface Paragraph {
  lines: Line[];
  /** The paragraph's base direction (from its first strong character). */
  rtl: boolean;
}

interface Atom {
  start: number;
  end: number;
  run: Run;
  face: FaceName;
  level: number;
}

function measure(doc: PDFKit.PDFDocument, face: FaceName, size: number, text: string): number {
  if (text === '') return 0;
  useFont(doc, face, size);
  const features = featuresOf(face);
  return doc.widthOfString(text, features ? { features } : {});
}

/** The width of one line of text in a style (no wrapping, no reordering: widths do not depend on order). */
export function textWidth(doc: PDFKit.PDFDocument, text: string, style: FontStyle, size: number): number {
  return faceSpans(text, style).reduce((sum, span) => sum + measure(doc, span.face, size, span.text), 0);
}

/** Runs split into the fonts that print them, in logical order. */
export function faceRuns(runs: Run[]): Array<Run & { face: FaceName }> {
  const han = hanPreference(runs.map((run) => run.text).join(''));
  return runs.flatMap((run) => faceSpans(run.text, run.font, han).map((span) => ({ ...run, text: span.text, face: span.face })));
}

/**
 * Breaks runs into lines no wider than `width` (a word longer than a line is cut between characters). The
 * base direction is the first strong character's unless `direction` is given.
 */
export function breakLines(doc: PDFKit.PDFDocument, runs: Run[], width: number, lineGap: number, direction?: 'ltr' | 'rtl'): Paragraph {
  const text = runs.map((run) => run.text).join('');
  const { levels, paragraphs } = bidi.getEmbeddingLevels(text, direction);
  const rtl = (paragraphs[0]?.level ?? 0) % 2 === 1;

  // Atoms: stretches of one run, one font and one bidi level.
  const atoms: Atom[] = [];
  let offset = 0;
  for (const run of faceRuns(runs)) {
    let start = offset;
    for (let index = offset + 1; index <= offset + run.text.length; index++) {
      if (index === offset + run.text.length || levels[index] !== levels[start]) {
        atoms.push({ start, end: index, run, face: run.face, level: levels[start] });
        start = index;
      }
    }
    offset += run.text.length;
  }

  // Words: from one break opportunity to the next, as slices of atoms.
  interface Slice {
    atom: Atom;
    start: number;
    end: number;
    width: number;
  }
  const slicesOf = (from: number, to: number): Slice[] =>
    atoms
      .filter((atom) => atom.end > from && atom.start < to)
      .map((atom) => {
        const start = Math.max(atom.start, from);
        const end = Math.min(atom.end, to);
        return { atom, start, end, width: measure(doc, atom.face, atom.run.size, text.slice(start, end).replace(/[\r\n]/g, '')) };
      });
  const trimmedWidth = (slices: Slice[]): number => {
    let width = slices.reduce((sum, slice) => sum + slice.width, 0);
    for (let index = slices.length - 1; index >= 0; index--) {
      const slice = slices[index];
      const content = text.slice(slice.start, slice.end);
      const kept = content.replace(/\s+$/u, '');
      width -= slice.width - measure(doc, slice.atom.face, slice.atom.run.size, kept);
      if (kept !== '') break;
    }
    return width;
  };

  const logicalLines: Slice[][] = [];
  let line: Slice[] = [];
  let used = 0;
  const place = (slices: Slice[], required: boolean) => {
    const needed = trimmedWidth(slices);
    if (line.length > 0 && used + needed > width) {
      logicalLines.push(line);
      line = [];
      used = 0;
    }
    line.push(...slices);
    used += slices.reduce((sum, slice) => sum + slice.width, 0);
    if (required) {
      logicalLines.push(line);
      line = [];
      used = 0;
    }
  };
  const breaker = new LineBreaker(text);
  let previous = 0;
  for (let next = breaker.nextBreak(); next; next = breaker.nextBreak()) {
    const slices = slicesOf(previous, next.position);
    if (line.length === 0 && trimmedWidth(slices) > width && next.position - previous > 1) {
      // Longer than a whole line: cut between characters.
      const characters = [...text.slice(previous, next.position)];
      let at = previous;
      characters.forEach((character, index) => {
        place(slicesOf(at, at + character.length), next.required && index === characters.length - 1);
        at += character.length;
      });
    } else place(slices, next.required);
    previous = next.position;
  }
  if (line.length > 0 || logicalLines.length === 0) logicalLines.push(line);

  const fallbackSize = runs[0]?.size ?? 10;
  return { rtl, lines: logicalLines.map((slices) => visualLine(doc, text, slices, fallbackSize, lineGap)) };
}

/** A line in visual order: trailing spaces dropped, pieces of one atom merged, levels reversed (UAX #9 L2). */
function visualLine(doc: PDFKit.PDFDocument, text: string, slices: Array<{ atom: Atom; start: number; end: number }>, fallbackSize: number, lineGap: number): Line {
  const merged: Array<{ atom: Atom; start: number; end: number }> = [];
  for (const slice of slices) {
    const last = merged[merged.length - 1];
    if (last && last.atom === slice.atom && last.end === slice.start) last.end = slice.end;
    else merged.push({ ...slice });
  }
  const pieces: Piece[] = merged.map(({ atom, start, end }) => {
    const { text: _text, font: _font, ...style } = atom.run;
    return { ...style, text: text.slice(start, end).replace(/[\r\n]/g, ''), face: atom.face, level: atom.level, width: 0 };
  });
  // Trailing whitespace takes the paragraph's level and is not drawn.
  while (pieces.length > 0) {
    const last = pieces[pieces.length - 1];
    last.text = last.text.replace(/\s+$/u, '');
    if (last.text !== '') break;
    pieces.pop();
  }
  const height = Math.max(fallbackSize, ...pieces.map((piece) => piece.size));
  if (pieces.length === 0) return { pieces, width: 0, height: lineHeight(height) + lineGap };

  const highest = Math.max(...pieces.map((piece) => piece.level));
  const lowestOdd = Math.min(...pieces.map((piece) => (piece.level % 2 === 1 ? piece.level : piece.level + 1)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let index = 0; index < pieces.length; ) {
      if (pieces[index].level < level) {
        index++;
        continue;
      }
      let end = index;
      while (end < pieces.length && pieces[end].level >= level) end++;
      pieces.splice(index, end - index, ...pieces.slice(index, end).reverse());
      index = end;
    }
  }
  for (const piece of pieces) {
    const odd = piece.level % 2 === 1;
    if (odd) piece.text = [...piece.text].map((char) => bidi.getMirroredCharacter(char) ?? char).join('');
    // fontkit reverses a piece in a right-to-left script itself; any other piece on a right-to-left level
    // (spaces, punctuation) is reversed here, and a left-to-right piece in such a script (Arabic digits)
    // is reversed here so that fontkit's reversal puts it back.
    if (odd !== hasRtl(piece.text)) piece.text = [...piece.text].reverse().join('');
    piece.width = measure(doc, piece.face, piece.size, piece.text);
  }
  return { pieces, width: pieces.reduce((sum, piece) => sum + piece.width, 0), height: lineHeight(height) + lineGap };
}

/** Draws a line with its left end at x and its top at y. */
export function drawLine(doc: PDFKit.PDFDocument, line: Line, x: number, y: number): void {
  let at = x;
  for (const piece of line.pieces) {
    useFont(doc, piece.face, piece.size);
    doc.fillColor(piece.color);
    const options = { features: featuresOf(piece.face), lineBreak: false, link: piece.link ?? null, goTo: piece.goTo ?? null, underline: Boolean(piece.underline), strike: Boolean(piece.strike) } as PDFKit.Mixins.TextOptions;
    doc.text(piece.text, at, y, options);
    at += piece.width;
  }
}
