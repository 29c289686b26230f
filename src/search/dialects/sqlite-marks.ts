import { MATCH_END, MATCH_START } from '../page-text.ts';

/**
 * SQLite's marks, made in Node (decision 0153): what `highlight(search_fts, column, MATCH_START, MATCH_END)` gives,
 * character for character, without FTS5 matching the query again to run it. The texts are cut where FTS5's
 * `unicode61` tokenizer cuts them, by a table of characters learned from SQLite itself (sqlite-marks-lexicon.ts);
 * what each word becomes (case folded, diacritics removed, stemmed by `porter`) is learned from FTS5 too. The
 * query's phrases (a searched word is a phrase of the tokens FTS5 makes of it) are found among a text's terms and
 * marked as highlight() marks them.
 *
 * How `unicode61` cuts (fts5_tokenize.c, and SQLite's own tables): a token starts at a token character and runs
 * while the characters are token characters or diacritics (with remove_diacritics, a combining mark such as U+0301
 * continues a token but does not start one: " \u0301abc" has the token "abc"). ASCII token characters are letters
 * and digits. Which other characters are token characters is SQLite's own table, of its Unicode version, which
 * differs from V8's (`\p{L}`, `\p{N}`): so the table is asked of SQLite, one character at a time, never guessed.
 */

/** A character's class for cutting: not learned yet, a separator, a token's start (and continuation), a continuation only. */
export const UNKNOWN = 0;
export const SEPARATOR = 1;
export const STARTS = 2;
export const CONTINUES = 3;

/** Every code point's class, as learned (UNKNOWN until then); ASCII is known: letters and digits are token characters. */
export const charClasses = new Uint8Array(0x110000);
for (let code = 0; code < 128; code++) {
  const alnum = (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  charClasses[code] = alnum ? STARTS : SEPARATOR;
}
// Lone surrogates never reach SQLite (its text is UTF-8): they are not cut into tokens.
charClasses.fill(SEPARATOR, 0xd800, 0xe000);

const NOT_ASCII = /[^\u0000-\u007f]/u;

/** The code points of `text` whose class is not known yet, added to `into`. */
export function unknownChars(text: string, into: Set<number>): void {
  if (!NOT_ASCII.test(text)) return;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (charClasses[code] === UNKNOWN) into.add(code);
  }
}

/** Where a text's tokens stand: the start and end (UTF-16 indexes) of each, in order. */
export interface Cut {
  starts: Int32Array;
  ends: Int32Array;
}

/** The tokens of `text` as `unicode61` cuts it (every character of it must have a known class). */
export function cutText(text: string): Cut {
  const starts: number[] = [];
  const ends: number[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let code = text.charCodeAt(i);
    let width = 1;
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    i += width;
    if (charClasses[code] !== STARTS) continue;
    const start = i - width;
    while (i < n) {
      code = text.charCodeAt(i);
      width = 1;
      if (code >= 0xd800 && code < 0xdc00 && i + 1 < n) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low < 0xe000) {
          code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      const kind = charClasses[code];
      if (kind !== STARTS && kind !== CONTINUES) break;
      i += width;
    }
    starts.push(start);
    ends.push(i);
  }
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}

/**
 * A phrase of the query as FTS5 reads it: its tokens, the last one searched by its start when `prefix`
 * (`"instal"*`). A searched word is a phrase of the tokens FTS5 makes of it (one, mostly). A phrase of no
 * token (a word FTS5 keeps nothing of) has no instances.
 */
export interface QueryPhrase {
  tokens: string[];
  prefix: boolean;
}

function matchesAt(terms: (string | null)[], at: number, phrase: QueryPhrase): boolean {
  const last = phrase.tokens.length - 1;
  for (let k = 0; k <= last; k++) {
    const term = terms[at + k];
    if (term === null) return false;
    const token = phrase.tokens[k];
    if (k === last && phrase.prefix ? !term.startsWith(token) : term !== token) return false;
  }
  return true;
}

/**
 * The runs of tokens highlight() marks (first and last token's index, inclusive): every instance of every phrase,
 * from its first token to its last, instances that overlap joined into one run (FTS5's CInstIter: an instance that
 * starts at or before the end of the run so far extends it; the next token after the end starts a new run).
 */
export function markedRuns(terms: (string | null)[], phrases: QueryPhrase[]): number[] {
  const found: [number, number][] = [];
  for (const phrase of phrases) {
    const size = phrase.tokens.length;
    if (size === 0) continue;
    for (let at = 0; at + size <= terms.length; at++) if (matchesAt(terms, at, phrase)) found.push([at, at + size - 1]);
  }
  if (found.length === 0) return [];
  found.sort((a, b) => a[0] - b[0]);
  const runs: number[] = [];
  let [start, end] = found[0];
  for (let i = 1; i < found.length; i++) {
    const [from, to] = found[i];
    if (from <= end) {
      if (to > end) end = to;
    } else {
      runs.push(start, end);
      [start, end] = [from, to];
    }
  }
  runs.push(start, end);
  return runs;
}

/** `text` with each run of tokens (markedRuns) between MATCH_START and MATCH_END, from its first token's start to its last token's end. */
export function markText(text: string, cut: Cut, runs: number[]): string {
  if (runs.length === 0) return text;
  let out = '';
  let copied = 0;
  for (let r = 0; r < runs.length; r += 2) {
    const start = cut.starts[runs[r]];
    const end = cut.ends[runs[r + 1]];
    out += `${text.slice(copied, start)}${MATCH_START}${text.slice(start, end)}${MATCH_END}`;
    copied = end;
  }
  return out + text.slice(copied);
}
