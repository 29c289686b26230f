import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';

/**
 * The fonts of Quire's PDFs (docs/decisions/0051-pdf-scripts.md): Noto Sans for Latin, Greek, Cyrillic and
 * Devanagari (Noto Sans has it), Noto Naskh Arabic, Noto Sans Hebrew, Noto Sans JP and SC for Japanese and Chinese, and
 * JetBrains Mono for code, all embedded as subsets (only the glyphs a PDF uses). A text in one style
 * ("sans-bold", "mono") is printed in the first font of that style's fallback list that has a glyph for
 * each character, so a line may switch fonts several times.
 */

export type FontStyle = 'sans' | 'sans-bold' | 'sans-italic' | 'sans-bold-italic' | 'mono' | 'mono-bold' | 'mono-italic' | 'mono-bold-italic';

/** How Han characters are drawn: with Japanese glyph shapes when the text has kana, else Simplified Chinese. */
export type HanPreference = 'ja' | 'zh';

const require = createRequire(import.meta.url);

/** The folder of an installed package (some font packages export no package.json: walk up from their entry). */
function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, 'package.json')) || (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== name) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package folder for ${name}`);
    dir = parent;
  }
  return dir;
}

/** Font files by the name each is registered under in a document. */
const FACES = {
  'noto-sans': ['@embedpdf/fonts-latin', 'fonts/NotoSans-Regular.ttf'],
  'noto-sans-bold': ['@embedpdf/fonts-latin', 'fonts/NotoSans-Bold.ttf'],
  'noto-sans-italic': ['@embedpdf/fonts-latin', 'fonts/NotoSans-Italic.ttf'],
  'noto-sans-bold-italic': ['@embedpdf/fonts-latin', 'fonts/NotoSans-BoldItalic.ttf'],
  'noto-naskh-arabic': ['@embedpdf/fonts-arabic', 'fonts/NotoNaskhArabic-Regular.ttf'],
  'noto-naskh-arabic-bold': ['@embedpdf/fonts-arabic', 'fonts/NotoNaskhArabic-Bold.ttf'],
  'noto-sans-hebrew': ['@embedpdf/fonts-hebrew', 'fonts/NotoSansHebrew-Regular.ttf'],
  'noto-sans-hebrew-bold': ['@embedpdf/fonts-hebrew', 'fonts/NotoSansHebrew-Bold.ttf'],
  'noto-sans-jp': ['@embedpdf/fonts-jp', 'fonts/NotoSansJP-Regular.otf'],
  'noto-sans-jp-bold': ['@embedpdf/fonts-jp', 'fonts/NotoSansJP-Bold.otf'],
  'noto-sans-sc': ['@embedpdf/fonts-sc', 'fonts/NotoSansHans-Regular.otf'],
  'noto-sans-sc-bold': ['@embedpdf/fonts-sc', 'fonts/NotoSansHans-Bold.otf'],
  'jetbrains-mono': ['@expo-google-fonts/jetbrains-mono', '400Regular/JetBrainsMono_400Regular.ttf'],
  'jetbrains-mono-bold': ['@expo-google-fonts/jetbrains-mono', '700Bold/JetBrainsMono_700Bold.ttf'],
  'jetbrains-mono-italic': ['@expo-google-fonts/jetbrains-mono', '400Regular_Italic/JetBrainsMono_400Regular_Italic.ttf'],
  'jetbrains-mono-bold-italic': ['@expo-google-fonts/jetbrains-mono', '700Bold_Italic/JetBrainsMono_700Bold_Italic.ttf'],
} as const satisfies Record<string, readonly [string, string]>;

export type FaceName = keyof typeof FACES;

/**
 * Every font gets the same vertical metrics (in thousandths of the size), so that the baselines of the
 * fonts of one line meet and a line's height does not depend on its script. Close to Noto Sans's own.
 */
export const METRICS = { ascender: 950, descender: -270, lineGap: 0 };

const bytesCache = new Map<FaceName, Buffer>();
const fontCache = new Map<FaceName, fontkit.Font>();

const pathCache = new Map<FaceName, string>();
function facePath(face: FaceName): string {
  let path = pathCache.get(face);
  if (!path) {
    const [pkg, file] = FACES[face];
    pathCache.set(face, (path = join(packageDir(pkg), file)));
  }
  return path;
}

function faceBytes(face: FaceName): Buffer {
  let bytes = bytesCache.get(face);
  if (!bytes) bytesCache.set(face, (bytes = readFileSync(facePath(face))));
  return bytes;
}

/** The font read once per process, only to ask which characters it has. */
function faceFont(face: FaceName): fontkit.Font {
  let font = fontCache.get(face);
  if (!font) {
    const opened = fontkit.create(faceBytes(face));
    if (!('hasGlyphForCodePoint' in opened)) throw new Error(`${face} is a font collection, not a font`);
    font = opened;
    fontCache.set(face, font);
  }
  return font;
}

/**
 * Makes every face known to a document by name, by its file: pdfkit opens only those a text uses, and
 * embeds only those (useFont then puts the process's copy of the font in its place).
 */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  for (const face of Object.keys(FACES) as FaceName[]) doc.registerFont(face, facePath(face));
}

function fallbacks(style: FontStyle, han: HanPreference): FaceName[] {
  const bold = style.includes('bold');
  const italic = style.includes('italic');
  const b = bold ? '-bold' : '';
  const sansUpright = `noto-sans${b}` as FaceName;
  const sans: FaceName[] = [
    ...(italic ? [`noto-sans${b}-italic` as FaceName] : []),
    sansUpright,
    `noto-naskh-arabic${b}` as FaceName,
    `noto-sans-hebrew${b}` as FaceName,
    ...(han === 'ja' ? [`noto-sans-jp${b}`, `noto-sans-sc${b}`] : [`noto-sans-sc${b}`, `noto-sans-jp${b}`]).map((name) => name as FaceName),
  ];
  if (!style.startsWith('mono')) return sans;
  return [...(italic ? [`jetbrains-mono${b}-italic` as FaceName] : []), `jetbrains-mono${b}` as FaceName, ...sans];
}

const chains = new Map<string, FaceName[]>();
function chain(style: FontStyle, han: HanPreference): FaceName[] {
  const key = `${style}/${han}`;
  let faces = chains.get(key);
  if (!faces) chains.set(key, (faces = fallbacks(style, han)));
  return faces;
}

const coverage = new Map<FaceName, Map<number, boolean>>();
export function hasGlyph(face: FaceName, code: number): boolean {
  let known = coverage.get(face);
  if (!known) coverage.set(face, (known = new Map()));
  let has = known.get(code);
  if (has === undefined) known.set(code, (has = faceFont(face).hasGlyphForCodePoint(code)));
  return has;
}

/** Whether any of the fonts can print a character. */
export function printable(code: number): boolean {
  return chain('sans', 'zh').some((face) => hasGlyph(face, code));
}

/** Kana in a text: its Han characters are then Japanese. */
export function hanPreference(text: string): HanPreference {
  return /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text) ? 'ja' : 'zh';
}

/**
 * Characters that stay in the font of the character before them when that font has them: marks and
 * joiners (they shape with their base), spaces and common punctuation (so that a run of Arabic words is
 * one run, shaped and ordered as one).
 */
const STICKY = /[\p{M}\u200c\u200d\p{Zs}\p{P}\p{S}\p{Nd}]/u;

export interface FaceSpan {
  text: string;
  face: FaceName;
}

/** Splits a text into spans each printed in one font, the first of the style's fallback list that has the glyphs. */
export function faceSpans(text: string, style: FontStyle, han: HanPreference = hanPreference(text)): FaceSpan[] {
  const faces = chain(style, han);
  const spans: FaceSpan[] = [];
  let current: FaceName | null = null;
  let start = 0;
  let offset = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    let face: FaceName;
    if (current && STICKY.test(char) && (hasGlyph(current, code) || /\p{M}|[\u200c\u200d]/u.test(char))) face = current;
    else face = faces.find((candidate) => hasGlyph(candidate, code)) ?? faces[0];
    if (face !== current) {
      if (current && offset > start) spans.push({ text: text.slice(start, offset), face: current });
      current = face;
      start = offset;
    }
    offset += char.length;
  }
  if (current && offset > start) spans.push({ text: text.slice(start, offset), face: current });
  return spans;
}

interface FontMetrics {
  ascender: number;
  descender: number;
  lineGap: number;
}
/** What pdfkit's embedded font keeps: its layouts of words, by text (sized to 1000 units, so alike for every document). */
interface PdfkitFont extends FontMetrics {
  layoutCache?: Record<string, unknown>;
  /** The fontkit font pdfkit opened for this document, and the subset of it the document embeds. */
  font?: fontkit.Font & { createSubset(): unknown };
  subset?: unknown;
  /** pdfkit's text encoder, and the characters of each glyph of the subset it writes to the ToUnicode map. */
  encode?(text: string, features?: unknown): unknown;
  unicode?: Array<number[] | undefined>;
  /** pdfkit's call into fontkit's layout (shaping and positioning) of one text. */
  layoutRun?(text: string, features?: unknown): unknown;
}

/**
 * fontkit fails on a few mark combinations that its GPOS code does not expect (a mark anchor missing for
 * an unusual base, seen with random text): the text is then laid out again without mark positioning and
 * kerning, its marks placed by their own advance, rather than losing the whole PDF.
 */
function tolerateLayoutErrors(font: PdfkitFont): void {
  const layoutRun = font.layoutRun?.bind(font);
  if (!layoutRun) return;
  font.layoutRun = (text, features) => {
    try {
      return layoutRun(text, features);
    } catch (error) {
      if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
      const given = Array.isArray(features) ? Object.fromEntries(features.map((tag: string) => [tag, true])) : ((features ?? {}) as Record<string, boolean>);
      return layoutRun(text, { ...given, mark: false, mkmk: false, kern: false, dist: false, abvm: false, blwm: false, curs: false });
    }
  };
}

const NO_LIGATURES = { calt: false, liga: false, dlig: false } as const;

/**
 * Code is always laid out without JetBrains Mono's ligatures and contextual alternates, whoever asks:
 * pdfkit's line wrapper measures each word without the features its caller gave (`featuresOf`), so a
 * word such as `http://x` or `a->b` went through the font's default `calt`, whose alternates fontkit
 * cannot read ("Offset is outside the bounds of the DataView"), and the whole PDF failed.
 */
function withoutLigatures(font: PdfkitFont): void {
  const layoutRun = font.layoutRun?.bind(font);
  if (!layoutRun) return;
  font.layoutRun = (text, features) => {
    const given = Array.isArray(features) ? Object.fromEntries(features.map((tag: string) => [tag, true])) : ((features ?? {}) as Record<string, boolean>);
    // fontkit adds its defaults to the object it is given: a fresh one each time.
    return layoutRun(text, { ...given, ...NO_LIGATURES });
  };
}

/**
 * Text extractors (pdf.js, pdftotext) read a right-to-left line from left to right and reverse it, and with
 * it the characters of a glyph that stands for several (the lam-alef ligature لا), which then read back
 * as "ال". Such a glyph is only ever drawn right to left, so its characters are written to the ToUnicode
 * map reversed, and the reader's reversal puts them back in order.
 */
function reverseLigatureText(font: PdfkitFont): void {
  const encode = font.encode?.bind(font);
  if (!encode) return;
  const done = new Set<number>();
  font.encode = (text, features) => {
    const result = encode(text, features);
    font.unicode?.forEach((codes, gid) => {
      if (codes && codes.length > 1 && !done.has(gid)) {
        font.unicode![gid] = [...codes].reverse();
        done.add(gid);
      }
    });
    return result;
  };
}
const evened = new WeakSet<object>();

/**
 * Word layouts shared by the documents of this process, per face: laying words out (OpenType kerning and
 * marks) is most of the time a PDF takes, and pdfkit would otherwise start from nothing in each document.
 * A layout depends only on the face and the text. Dropped when it grows past a bound.
 */
const layouts = new Map<FaceName, Record<string, unknown>>();
const LAYOUTS_PER_FACE = 20_000;

/** Makes a face the document's current font, at a size, with the shared vertical metrics (METRICS). */
export function useFont(doc: PDFKit.PDFDocument, face: FaceName, size: number): void {
  doc.font(face).fontSize(size);
  const font = (doc as unknown as { _font: PdfkitFont })._font;
  if (!evened.has(font)) {
    Object.assign(font, METRICS);
    let shared = layouts.get(face);
    if (!shared || Object.keys(shared).length > LAYOUTS_PER_FACE) layouts.set(face, (shared = Object.create(null) as Record<string, unknown>));
    if (font.layoutCache) font.layoutCache = shared;
    // The process's own fontkit font in place of the document's: its tables (cmap, GSUB, GPOS, glyph
    // outlines) are then read once per process, not once per PDF. Only the subset is the document's.
    if (font.font && font.subset) {
      const opened = faceFont(face) as fontkit.Font & { createSubset(): unknown };
      font.font = opened;
      font.subset = opened.createSubset();
    }
    if (face.startsWith('jetbrains-mono')) withoutLigatures(font);
    tolerateLayoutErrors(font);
    if (face.startsWith('noto-naskh-arabic') || face.startsWith('noto-sans-hebrew')) reverseLigatureText(font);
    evened.add(font);
  }
}

/** The height of a line of text of a size, without the gap between lines. */
export function lineHeight(size: number): number {
  return ((METRICS.ascender - METRICS.descender) / 1000) * size;
}

/**
 * The OpenType features a face is laid out with, given to pdfkit with every text of that face, or nothing.
 * Without features pdfkit lays a text out word by word and caches each word (fast, and right for
 * left-to-right text); with them it lays the whole text out at once. Arabic and Hebrew need that: word by
 * word, the words of a right-to-left text would stay in left-to-right order. Code shows the characters as
 * typed: no ligatures ("->" stays two glyphs; JetBrains Mono's contextual ligatures also trip fontkit).
 */
export function featuresOf(face: FaceName): PDFKit.Mixins.OpenTypeFeatures[] | undefined {
  // fontkit takes the features as a list to turn on or as an object of on and off; pdfkit passes either
  // through, its typings know only the list.
  if (face.startsWith('jetbrains-mono')) return { calt: false, liga: false, dlig: false } as unknown as PDFKit.Mixins.OpenTypeFeatures[];
  if (face.startsWith('noto-naskh-arabic') || face.startsWith('noto-sans-hebrew')) return [];
  return undefined;
}
