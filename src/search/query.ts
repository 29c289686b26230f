/**
 * What a caller types, read into what both engines understand: words and "quoted phrases". Every word must
 * be found (in the title, a heading or the body); a word of two letters or more also matches as the start
 * of a longer word (`instal` finds "install", "installation"), after stemming. A phrase must be found as
 * written, word after word. Everything but letters, digits and quotes separates words, so no text a caller
 * sends can reach an engine's own query syntax.
 */
export interface SearchTerm {
  word: string;
  prefix: boolean;
}

export interface SearchQuery {
  terms: SearchTerm[];
  /** Each phrase as its words. */
  phrases: string[][];
}

/** More words than this are ignored: a search is a few words, and each one costs the engines a lookup. */
export const MAX_SEARCH_WORDS = 32;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).map((word) => word.normalize('NFC'));
}

export function parseSearchQuery(text: string): SearchQuery {
  const query: SearchQuery = { terms: [], phrases: [] };
  let budget = MAX_SEARCH_WORDS;
  // Quotes alternate: even pieces are loose words, odd pieces phrases (an unclosed quote runs to the end).
  text.split('"').forEach((piece, index) => {
    const found = words(piece).slice(0, Math.max(0, budget));
    budget -= found.length;
    if (found.length === 0) return;
    if (index % 2 === 1 && found.length > 1) query.phrases.push(found);
    else for (const word of found) query.terms.push({ word, prefix: index % 2 === 0 && word.length >= 2 });
  });
  const seen = new Set<string>();
  query.terms = query.terms.filter((term) => {
    const key = `${term.word}${term.prefix ? '*' : ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return query;
}

/** True when the query holds nothing to look for (only punctuation, say). */
export function isEmptyQuery(query: SearchQuery): boolean {
  return query.terms.length === 0 && query.phrases.length === 0;
}
