import { MATCH_END, MATCH_START } from '../page-text.ts';

/**
 * PostgreSQL's marks, made in Node (decision 0147): the words `ts_headline(english, text, q, 'HighlightAll=true')`
 * marks, without parsing the text in PostgreSQL on every request. A text is cut into chunks at white space (PostgreSQL's
 * parser starts afresh after a blank: no token but a tag spans white space, so a chunk holding an open `<` runs to its
 * `>`); what PostgreSQL's parser and the `english` configuration make of each chunk — its tokens and their lexemes — is
 * learned once (postgres-lexicon.ts) and kept. A token is marked when one of its lexemes is one of the query's
 * (or starts with it, for `:*`), as `ts_headline` marks it: every such word, in a phrase or not.
 */

/** A token of a chunk that has lexemes: where it stands in the chunk, and its lexemes. Stop words and blanks have none. */
export type ChunkWord = [start: number, end: number, lexemes: string[]];

/** The words of a chunk, or null when PostgreSQL's tokens could not be placed in it (nothing in it is marked then). */
export type ChunkWords = ChunkWord[] | null;

/** A token PostgreSQL's parser gives: its type's alias, its text, its lexemes (null: no dictionary for it). */
export type ParsedToken = [alias: string, token: string, lexemes: string[] | null];

/** Tokens `ts_headline` leaves out because their parts follow them (hyphenated words, URLs): never marked. */
const COMPOUND = new Set(['asciihword', 'hword', 'numhword', 'url']);

/** The words of a chunk from its tokens as PostgreSQL's parser gives them, in order. */
export function chunkWords(chunk: string, tokens: ParsedToken[]): ChunkWords {
  const words: ChunkWord[] = [];
  let at = 0;
  for (const [alias, token, lexemes] of tokens) {
    if (COMPOUND.has(alias)) continue;
    if (!chunk.startsWith(token, at)) return null;
    if (lexemes && lexemes.length > 0) words.push([at, at + token.length, lexemes]);
    at += token.length;
  }
  return at === chunk.length ? words : null;
}

// The white space at which chunks are cut (ASCII and the section separator: PostgreSQL's parser takes them for blanks).
const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13) || code === 0x1e;
/** A chunk with an open `<` is run on through white space to the next `>`, up to this many characters. */
const MAX_TAG = 512;

/** A text cut into chunks: each chunk and where it starts. */
export interface Chunked {
  starts: number[];
  chunks: string[];
}

/** The chunks of a text, between white space. */
export function chunksOf(text: string): Chunked {
  const starts: number[] = [];
  const chunks: string[] = [];
  let start = -1;
  let openAt = -1;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    if (isSpace(code) && (openAt < 0 || i - openAt > MAX_TAG || i === text.length)) {
      if (start >= 0) {
        starts.push(start);
        chunks.push(text.slice(start, i));
      }
      start = -1;
      openAt = -1;
      continue;
    }
    if (isSpace(code)) continue;
    if (start < 0) start = i;
    if (code === 60 /* < */) openAt = i;
    else if (code === 62 /* > */) openAt = -1;
  }
  return { starts, chunks };
}

/** A query's lexemes, from its tsquery as text (`'instal':* & 'guid' <-> 'step'`). */
export interface QueryLexemes {
  exact: Set<string>;
  prefixes: string[];
}

const OPERAND = /'((?:[^'\\]|''|\\.)*)'(:\*?[A-D]*)?/g;

export function queryLexemes(tsquery: string): QueryLexemes {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const match of tsquery.matchAll(OPERAND)) {
    const lexeme = match[1].replace(/''/g, "'").replace(/\\(.)/g, '$1');
    if (match[2]?.includes('*')) prefixes.push(lexeme);
    else exact.add(lexeme);
  }
  return { exact, prefixes };
}

function matches(lexemes: string[], query: QueryLexemes): boolean {
  for (const lexeme of lexemes) {
    if (query.exact.has(lexeme)) return true;
    for (const prefix of query.prefixes) if (lexeme.startsWith(prefix)) return true;
  }
  return false;
}

/** The words of a text, where they stand in it, from its chunks' starts and words (null: a chunk whose words are not known). */
export function textWords(starts: number[], words: ChunkWords[]): ChunkWord[] {
  const found: ChunkWord[] = [];
  for (let c = 0; c < starts.length; c++) {
    for (const [from, to, lexemes] of words[c] ?? []) found.push([starts[c] + from, starts[c] + to, lexemes]);
  }
  return found;
}

/** `text` with every word of `words` (textWords) whose lexeme the query holds between MATCH_START and MATCH_END. */
export function markText(text: string, words: ChunkWord[], query: QueryLexemes): string {
  let out = '';
  let copied = 0;
  for (const [start, end, lexemes] of words) {
    if (!matches(lexemes, query)) continue;
    out += `${text.slice(copied, start)}${MATCH_START}${text.slice(start, end)}${MATCH_END}`;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
