import { sql } from 'kysely';
import type { SearchDialect } from '../dialect.ts';
import { MATCH_END, MATCH_START } from '../page-text.ts';
import { BM25, ftsExpression, textMatch } from './fts5-expression.ts';
import { sqliteMatchingSpaces } from './sqlite-spaces.ts';
import { writeSqliteTitleTerms } from './sqlite-title-terms.ts';

/**
 * SQLite: FTS5 (`search_fts`, external content over `search_pages`, rowid = `doc_id`); the query's FTS5
 * expression and the ranking are in fts5-expression.ts, the grouping by space in sqlite-spaces.ts.
 */
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
      // highlight() here: these statements match the query anyway (engine.ts). The organization path reads its shown
      // pages by primary key and marks them in Node instead (sqlite-spaces.ts, sqlite-marks.ts; decision 0153).
      headings: sql<string>`highlight(search_fts, 1, ${MATCH_START}, ${MATCH_END})`,
      body: sql<string>`highlight(search_fts, 2, ${MATCH_START}, ${MATCH_END})`,
    };
  },

  matchingSpaces: sqliteMatchingSpaces,

  writeTitleTerms: writeSqliteTitleTerms,

  // One connection, whose transactions run one at a time: index writers are serialized already.
  async lockSpace() {},

  async textsByBody(db, hashes) {
    // SQLite takes the other columns from one row of each group.
    return db.selectFrom('search_pages').select(['body_hash', 'headings', 'body', 'sections']).where('body_hash', 'in', hashes).groupBy('body_hash').execute();
  },
};
