import { sql } from 'kysely';
import type { SearchDialect } from '../engine.ts';
import { MATCH_END, MATCH_START } from '../page-text.ts';
import type { SearchQuery } from '../query.ts';
import { sqliteMatchingSpaces } from './sqlite-spaces.ts';

/**
 * SQLite: FTS5 (`search_fts`, external content over `search_pages`, rowid = `doc_id`). The query becomes
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

export const sqliteSearch: SearchDialect = {
  match(query) {
    const expression = ftsExpression(query);
    const inColumn = (column: 'title' | 'headings') =>
      sql`search_fts.rowid in (select rowid from search_fts where search_fts match ${`{${column}} : (${expression})`})`;
    return {
      ctes: null,
      from: sql`search_fts join search_pages p on p.doc_id = search_fts.rowid`,
      where: sql`search_fts match ${textMatch(query)}`,
      tier: sql<number>`case when ${inColumn('title')} then 3 when ${inColumn('headings')} then 2 else 1 end`,
      score: BM25,
      headings: sql<string>`highlight(search_fts, 1, ${MATCH_START}, ${MATCH_END})`,
      body: sql<string>`highlight(search_fts, 2, ${MATCH_START}, ${MATCH_END})`,
    };
  },

  matchingSpaces: sqliteMatchingSpaces,

  // One connection, whose transactions run one at a time: index writers are serialized already.
  async lockSpace() {},

  async textsByBody(db, hashes) {
    // SQLite takes the other columns from one row of each group.
    return db.selectFrom('search_pages').select(['body_hash', 'headings', 'body', 'sections']).where('body_hash', 'in', hashes).groupBy('body_hash').execute();
  },
};
