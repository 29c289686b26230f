import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { SearchQuery } from '../query.ts';
import { tokensOf } from './fts5-prefixes.ts';
import { keep, KeptTexts, own } from './kept.ts';
import { varints } from './sqlite-title-terms.ts';
import { charClasses, CONTINUES, cutText, markedRuns, markText, SEPARATOR, STARTS, unknownChars, type Cut, type QueryPhrase } from './sqlite-marks.ts';

/**
 * What FTS5 makes of the shown texts (sqlite-marks.ts), learned from FTS5 itself through the scratch table of
 * fts5-prefixes.ts (`tokensOf`: the tokenizer of `search_fts`) and kept per process, bounded:
 * - the class of each character met (a token's start, a continuation only, a separator): two texts asked per
 *   character, `c` and `a c a` without the blanks, once per process;
 * - each word's term (the token FTS5 writes for it: case folded, diacritics removed, stemmed);
 * - the query's phrases (each searched word and phrase as FTS5's tokens);
 * - whole texts shown, cut and with their terms, so a page shown again is marked without being cut again.
 * What a request does not know yet is asked in one `tokensOf` call (two when it meets characters not seen before:
 * the texts are cut only once their characters are known).
 */

/** At most this many words are kept (the oldest go first); longer words than MAX_KEPT_WORD are not kept. */
export const MAX_KEPT_WORDS = 100_000;
const MAX_KEPT_WORD = 100;
const MAX_KEPT_QUERIES = 1_000;
/** Texts are kept cut for texts of at most MAX_KEPT_TEXT characters, MAX_KEPT_TEXTS_CHARS characters in all. */
const MAX_KEPT_TEXT = 20_000;
const MAX_KEPT_TEXTS_CHARS = 2_000_000;

/** A text's tokens and their terms (null: a word FTS5 did not read as one token; the text is not marked in Node then). */
interface CutText extends Cut {
  terms: (string | null)[];
  sure: boolean;
}

const words = new Map<string, string | null>();
const queries = new Map<string, QueryPhrase[]>();
const texts = new KeptTexts<CutText>(MAX_KEPT_TEXT, MAX_KEPT_TEXTS_CHARS);

/** What was learned and done, for tests and benches. */
export const marksStats = { chars: 0, words: 0, asks: 0, fallbacks: 0 };

/** Forgets what was learned but the characters' classes (tests). */
export function forgetMarks(): void {
  words.clear();
  queries.clear();
  texts.clear();
}

/** The FTS5 strings of the query's phrases: each word (as ftsExpression quotes it) and each phrase. */
function queryStrings(query: SearchQuery): { strings: string[]; prefixes: boolean[] } {
  return {
    strings: [...query.terms.map((term) => term.word), ...query.phrases.map((phrase) => phrase.join(' '))],
    prefixes: [...query.terms.map((term) => term.prefix), ...query.phrases.map(() => false)],
  };
}

/** Asks FTS5 for the tokens of `asked` (one tokensOf call), counted. */
async function ask(db: Kysely<DB>, asked: string[]): Promise<string[][]> {
  marksStats.asks++;
  return tokensOf(db, asked);
}

/** The class of each of `chars` from the tokens FTS5 gives `c` alone (a token: it starts one) and `aca` (one token: it continues one). */
function learnChars(chars: number[], alone: string[][], between: string[][]): void {
  chars.forEach((code, i) => {
    charClasses[code] = alone[i].length === 1 ? STARTS : between[i].length === 1 ? CONTINUES : SEPARATOR;
  });
  marksStats.chars += chars.length;
}

/** A text cut, with the terms of its words already known (undefined: asked in this request, in `unknown`: word → its place). */
function cutWith(text: string, unknown: Map<string, number>): CutText {
  const cut = cutText(text);
  const terms: (string | null)[] = new Array(cut.starts.length);
  for (let t = 0; t < cut.starts.length; t++) {
    const word = text.slice(cut.starts[t], cut.ends[t]);
    const term = words.get(word);
    if (term !== undefined) terms[t] = term;
    else if (!unknown.has(word)) unknown.set(word, unknown.size);
  }
  return { ...cut, terms, sure: true };
}

export interface MarkedTexts {
  /** Each text marked as highlight() marks it, or null where Node could not be sure (a word FTS5 reads as more than one token). */
  marked: (string | null)[];
  /** How many tokens Node cut in each text (for the guard against FTS5's own count). */
  tokens: number[];
}

/** `shown` marked for `query` as `highlight(search_fts, …, MATCH_START, MATCH_END)` marks a row's column that matches the query. */
export async function markSqliteTexts(db: Kysely<DB>, query: SearchQuery, shown: string[]): Promise<MarkedTexts> {
  const key = JSON.stringify(query);
  let phrases = queries.get(key);
  const { strings, prefixes } = queryStrings(query);
  let pending = phrases ? [] : strings;
  let queryTokens: string[][] = [];
  const cuts: (CutText | undefined)[] = shown.map((text) => texts.get(text));
  const missing = cuts.flatMap((found, i) => (found === undefined ? [i] : []));

  // Characters never seen: learned first (with the query's strings), as the texts cannot be cut before.
  const chars = new Set<number>();
  for (const i of missing) unknownChars(shown[i], chars);
  if (chars.size > 0) {
    const list = [...chars];
    const alone = list.map((code) => String.fromCodePoint(code));
    const answer = await ask(db, [...pending, ...alone, ...alone.map((char) => `a${char}a`)]);
    queryTokens = answer.slice(0, pending.length);
    learnChars(list, answer.slice(pending.length, pending.length + list.length), answer.slice(pending.length + list.length));
    pending = [];
  }

  // The texts cut; the words not known yet (and the query's strings, when not asked above) in one call.
  const unknown = new Map<string, number>();
  for (const i of missing) cuts[i] = cutWith(shown[i], unknown);
  if (pending.length + unknown.size > 0) {
    const answer = await ask(db, [...pending, ...unknown.keys()]);
    if (pending.length > 0) queryTokens = answer.slice(0, pending.length);
    const learned: (string | null)[] = [];
    let at = pending.length;
    for (const word of unknown.keys()) {
      const tokens = answer[at++];
      const term = tokens.length === 1 ? tokens[0] : null;
      learned.push(term);
      if (word.length <= MAX_KEPT_WORD) keep(words, own(word), term, MAX_KEPT_WORDS);
    }
    marksStats.words += unknown.size;
    for (const i of missing) {
      const cut = cuts[i]!;
      const text = shown[i];
      for (let t = 0; t < cut.terms.length; t++) {
        if (cut.terms[t] === undefined) cut.terms[t] = learned[unknown.get(text.slice(cut.starts[t], cut.ends[t]))!];
      }
    }
  }
  for (const i of missing) {
    const cut = cuts[i]!;
    cut.sure = cut.terms.every((term) => term !== null);
    if (cut.sure) texts.keep(shown[i], cut);
  }
  if (!phrases) {
    phrases = strings.map((_, i) => ({ tokens: queryTokens[i], prefix: prefixes[i] }));
    keep(queries, key, phrases, MAX_KEPT_QUERIES);
  }
  const found = phrases;
  const marked = shown.map((text, i) => {
    const cut = cuts[i]!;
    return cut.sure ? markText(text, cut, markedRuns(cut.terms, found)) : null;
  });
  return { marked, tokens: cuts.map((cut) => cut!.starts.length) };
}

/** A shown page's row as read for marking: its headings and body unmarked, and FTS5's sizes of its columns (`search_fts_docsize.sz`). */
export interface UnmarkedRow {
  headings: string;
  body: string;
  sz: Uint8Array | null;
}

/** The columns of `search_fts` (migration 2026-11-26-0120): title, headings, body, scope; the sizes are in that order. */
const HEADINGS = 1;
const BODY = 2;

/**
 * `rows` with their headings and body marked in Node as highlight() marks them (`marked`, in their order, without
 * `sz`), and the rows Node cannot vouch for (`unsure`): where the tokens Node cut in a column are not as many as FTS5
 * counted when it indexed the row (search_fts_docsize), or a word was not one token. Those are for highlight() itself.
 */
export async function markShownRows<Row extends UnmarkedRow>(db: Kysely<DB>, query: SearchQuery, rows: Row[]): Promise<{ marked: Omit<Row, 'sz'>[]; unsure: Row[] }> {
  const { marked, tokens } = await markSqliteTexts(db, query, rows.flatMap((row) => [row.headings, row.body]));
  const done: Omit<Row, 'sz'>[] = [];
  const unsure: Row[] = [];
  rows.forEach((row, i) => {
    const sizes = row.sz ? varints(row.sz) : [];
    const [headings, body] = [marked[2 * i], marked[2 * i + 1]];
    if (headings === null || body === null || sizes[HEADINGS] !== tokens[2 * i] || sizes[BODY] !== tokens[2 * i + 1]) {
      unsure.push(row);
      return;
    }
    const { sz: _sz, ...rest } = row;
    done.push({ ...rest, headings, body });
  });
  marksStats.fallbacks += unsure.length;
  return { marked: done, unsure };
}
