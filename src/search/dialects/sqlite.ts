import { sql } from 'kysely';
import type { SearchDialect } from '../engine.ts';
import { MATCH_END, MATCH_START } from '../page-text.ts';
import type { SearchQuery } from '../query.ts';

/**
 * SQLite: FTS5 (`search_fts`, external content over `search_pages`, rowid = `doc_id`). The query becomes
 * an FTS5 expression of quoted strings only (`"instal"* "exact phrase"`), so nothing a caller types is
 * read as FTS5 syntax. Relevance is BM25 with the title weighing 10, headings 5 and the body 1.
 */
export function ftsExpression(query: SearchQuery): string {
  const terms = query.terms.map((term) => `"${term.word}"${term.prefix ? '*' : ''}`);
  const phrases = query.phrases.map((words) => `"${words.join(' ')}"`);
  return [...terms, ...phrases].join(' ');
}

export const sqliteSearch: SearchDialect = {
  match(query) {
    const expression = ftsExpression(query);
    const inColumn = (column: 'title' | 'headings') =>
      sql`search_fts.rowid in (select rowid from search_fts where search_fts match ${`{${column}} : (${expression})`})`;
    return {
      ctes: null,
      from: sql`search_fts join search_pages p on p.doc_id = search_fts.rowid`,
      where: sql`search_fts match ${expression}`,
      tier: sql<number>`case when ${inColumn('title')} then 3 when ${inColumn('headings')} then 2 else 1 end`,
      score: sql<number>`bm25(search_fts, 10.0, 5.0, 1.0)`,
      headings: sql<string>`highlight(search_fts, 1, ${MATCH_START}, ${MATCH_END})`,
      body: sql<string>`highlight(search_fts, 2, ${MATCH_START}, ${MATCH_END})`,
    };
  },

  // One connection, whose transactions run one at a time: index writers are serialized already.
  async lockSpace() {},

  async textsByBody(db, hashes) {
    // SQLite takes the other columns from one row of each group.
    return db.selectFrom('search_pages').select(['body_hash', 'headings', 'body', 'sections']).where('body_hash', 'in', hashes).groupBy('body_hash').execute();
  },
};
