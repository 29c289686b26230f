import { sql } from 'kysely';
import type { SearchQuery } from '../query.ts';

/**
 * SQLite's FTS5 (`search_fts`, external content over `search_pages`, rowid = `doc_id`). The query becomes
 * an FTS5 expression of quoted strings only (`"instal"* "exact phrase"`), so nothing a caller types is
 * read as FTS5 syntax, and it is kept to the text columns (`{title headings body}`), so it never matches the
 * `scope` column (the page's space, migration 2026-11-26-0120). Relevance is BM25 with the title weighing
 * 10, headings 5, the body 1 and the scope 0.
 */
export function ftsExpression(query: SearchQuery): string {
  const terms = query.terms.map((term) => `"${term.word}"${term.prefix ? '*' : ''}`);
  const phrases = query.phrases.map((words) => `"${words.join(' ')}"`);
  return [...terms, ...phrases].join(' ');
}

/** The FTS5 expression for the pages that match the query. */
export function textMatch(query: SearchQuery): string {
  return `{title headings body} : (${ftsExpression(query)})`;
}

/** BM25 as the ranking of every SQLite search: the weights of title, headings, body and scope. */
export const BM25 = sql<number>`bm25(search_fts, 10.0, 5.0, 1.0, 0.0)`;

