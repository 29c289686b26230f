/**
 * Text for the PDF's standard fonts (Helvetica, Courier), which are not embedded and only cover the
 * Windows-1252 ("WinAnsi") characters: Latin letters with their accents, common punctuation, the euro
 * sign. Anything else would print as unrelated glyphs, so it is mapped to a close spelling (arrows,
 * math signs, accented letters outside Latin-1) or to "?" when there is none.
 */

/** The characters above U+00FF that WinAnsi holds (the 0x80–0x9F row). */
const WIN_ANSI_EXTRA = new Set([
  0x0152, 0x0153, 0x0160, 0x0161, 0x0178, 0x017d, 0x017e, 0x0192, 0x02c6, 0x02dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d,
  0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

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

/** Zero-width characters and variation selectors: dropped. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\ufe00-\ufe0f]/g;

function printable(code: number): boolean {
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(code);
}

/**
 * Text that the standard fonts print as written. Line breaks stay; tabs become spaces (`tabWidth` of them), other control
 * characters and unknown symbols "?", letters with marks outside Latin-1 lose their marks ("ő" becomes "o",
 * "ł" "l"). Pictographs (emoji) are dropped rather than printed as "?".
 */
export function pdfText(text: string, tabWidth = 4): string {
  let out = '';
  for (const char of text.replace(INVISIBLE, '')) {
    const code = char.codePointAt(0)!;
    if (printable(code)) out += char;
    else if (char === '\t') out += ' '.repeat(tabWidth);
    else if (char === '\n') out += '\n';
    else if (char === '\r') continue;
    else if (REPLACEMENTS[char] !== undefined) out += REPLACEMENTS[char];
    else if (/\p{Extended_Pictographic}/u.test(char)) continue;
    else {
      const stripped = char.normalize('NFKD').replace(/\p{M}/gu, '');
      out += [...stripped].every((c) => printable(c.codePointAt(0)!)) && stripped !== '' ? stripped : '?';
    }
  }
  return out;
}
