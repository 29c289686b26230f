import * as fontkit from 'fontkit';
import { BadRequest } from '../../errors.ts';

/** The largest font file accepted (a woff2 of a full Latin family is ~100 KB; CJK families reach a few MB). */
export const FONT_MAX_BYTES = 5 * 1024 * 1024;

/** What a face's file must be: the two formats every browser reads and the client's FontSource names. */
export type FontFormat = 'woff2' | 'woff';

/** The members of a parsed font that the check reads (fontkit ships no types; src/pdf/vendor.d.ts names a few). */
interface ParsedFont {
  type?: string;
  familyName?: string;
  numGlyphs?: number;
  glyphForCodePoint?: (codePoint: number) => { path?: unknown } | undefined;
}

/** The format a file's first bytes announce, or null. */
export function sniffFormat(bytes: Buffer): FontFormat | null {
  const magic = bytes.subarray(0, 4).toString('latin1');
  if (magic === 'wOF2') return 'woff2';
  if (magic === 'wOFF') return 'woff';
  return null;
}

/**
 * Checks that the bytes are a font a reader's browser can use, by parsing it whole with fontkit (the
 * library the PDF renderer already uses): its signature, its tables, its name and at least one glyph's
 * outline (for woff2 this decompresses the glyph data). Returns the family name it declares.
 */
export function checkFontFile(bytes: Buffer, declared: FontFormat): { fontFamily: string; format: FontFormat } {
  if (bytes.length > FONT_MAX_BYTES) throw new BadRequest(`A font file may hold at most ${FONT_MAX_BYTES} bytes; this one holds ${bytes.length}.`);
  const format = sniffFormat(bytes);
  if (!format) throw new BadRequest('This file is not a WOFF2 or WOFF font (its first bytes say otherwise). Convert a TTF or OTF font to WOFF2 first.');
  if (format !== declared) throw new BadRequest(`This file is a ${format.toUpperCase()} font, but its name says ${declared.toUpperCase()}.`);
  let font: ParsedFont;
  try {
    const parsed = fontkit.create(bytes);
    if ('fonts' in parsed) throw new BadRequest('This file is a font collection; upload one font per face.');
    font = parsed as unknown as ParsedFont;
    const family = font.familyName;
    if (typeof family !== 'string' || family.trim() === '') throw new BadRequest('This font file has no family name.');
    if (!font.numGlyphs || font.numGlyphs < 1) throw new BadRequest('This font file has no glyphs.');
    // Reading an outline makes fontkit decode the glyph tables, which a damaged file fails.
    void font.glyphForCodePoint?.(0x41)?.path;
    return { fontFamily: family.trim(), format };
  } catch (error) {
    if (error instanceof BadRequest) throw error;
    throw new BadRequest(`This font file is damaged and cannot be read (${error instanceof Error ? error.message : String(error)}).`);
  }
}
