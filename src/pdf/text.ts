import { printable } from './fonts.ts';

/**
 * Text as the PDF's fonts can print it (src/pdf/fonts.ts: Latin, Greek, Cyrillic, Arabic, Hebrew,
 * Devanagari, Japanese, Chinese). A character that none of them has is mapped to a close spelling
 * (a few symbols, letters whose marks the fonts lack) or to "?" when there is none.
 */

/** Close spellings for frequent characters the fonts lack. */
const REPLACEMENTS: Record<string, string> = {
  '\u2190': '<-',
  '\u2192': '->',
  '\u2194': '<->',
  '\u21d0': '<=',
  '\u21d2': '=>',
  '\u21d4': '<=>',
  '\u2191': '^',
  '\u2193': 'v',
  '\u2212': '-',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2015': '-',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  '\u2248': '~',
  '\u221e': 'infinity',
  '\u2713': 'v',
  '\u2714': 'v',
  '\u2717': 'x',
  '\u2718': 'x',
  '\u2032': "'",
  '\u2033': '"',
  '\u00a0': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2009': ' ',
  '\u200a': ' ',
  '\u202f': ' ',
  '\u2028': ' ',
  '\u2029': ' ',
  '\u2116': 'No.',
  // Letters that do not decompose into a base letter and a mark.
  '\u0141': 'L',
  '\u0142': 'l',
  '\u0110': 'D',
  '\u0111': 'd',
  '\u0131': 'i',
  '\u0126': 'H',
  '\u0127': 'h',
  '\u0166': 'T',
  '\u0167': 't',
};

/** Zero-width spaces, word joiners, byte order marks and variation selectors: dropped (joiners that shape, U+200C and U+200D, stay). */
const INVISIBLE = /[\u200b\u2060\ufeff\ufe00-\ufe0f]/g;

/** Bidi controls: the layout orders text itself (src/pdf/lines.ts), and the fonts have no glyph for them. */
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text that the fonts print as written. Line breaks stay; tabs become spaces (`tabWidth` of them), other
 * other control characters become "?", characters no font has get a close spelling or "?", letters with marks
 * no font has lose their marks. Pictographs (emoji) are dropped rather than printed as "?".
 */
export function pdfText(text: string, tabWidth = 4): string {
  let out = '';
  for (const char of text.replace(INVISIBLE, '').replace(BIDI_CONTROLS, '')) {
    const code = char.codePointAt(0)!;
    if (char === '\t') out += ' '.repeat(tabWidth);
    else if (char === '\n') out += '\n';
    else if (code === 0x0d) continue;
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += '?';
    else if (REPLACEMENTS[char] !== undefined && !printable(code)) out += REPLACEMENTS[char];
    else if (printable(code) || code === 0x200c || code === 0x200d) out += char;
    else if (/\p{Extended_Pictographic}/u.test(char)) continue;
    else {
      const stripped = char.normalize('NFKD').replace(/\p{M}/gu, '');
      out += [...stripped].every((c) => printable(c.codePointAt(0)!)) && stripped !== '' ? stripped : '?';
    }
  }
  return out;
}
