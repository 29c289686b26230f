import { lockRows } from '../../db/locks.ts';
import { sql } from 'kysely';
import type { SearchDialect } from '../dialect.ts';
import type { SearchQuery } from '../query.ts';
import { markPostgresRows } from './postgres-lexicon.ts';
import { postgresTitleSpaces, writePostgresTitleTerms } from './postgres-title-terms.ts';

/**
 * PostgreSQL: the generated, weighted `search_pages.document` tsvector (title A, headings B, body C) with
 * its GIN index, and English stemming. The query is parsed once (the `q` CTE): words with `to_tsquery`
 * from quoted lexemes (`'instal':* & 'guide':*`), phrases with `phraseto_tsquery`. Common English words
 * (stop words) are left out by PostgreSQL's English configuration. The statements read the texts unmarked; the
 * marks are `ts_headline`'s, made in Node from PostgreSQL's parse (postgres-marks.ts, decision 0147).
 */
const CONFIG = sql`'english'::regconfig`;

/** The query as a tsquery (the `english` configuration). */
export function tsquery(query: SearchQuery) {
  const parts = query.phrases.map((words) => sql`phraseto_tsquery(${CONFIG}, ${words.join(' ')})`);
  if (query.terms.length > 0) {
    const text = query.terms.map((term) => `'${term.word}'${term.prefix ? ':*' : ''}`).join(' & ');
    parts.unshift(sql`to_tsquery(${CONFIG}, ${text})`);
  }
  return sql.join(parts, sql` && `);
}

const headings = sql<string>`p.headings`;
const body = sql<string>`p.body`;

export const postgresSearch: SearchDialect = {
  match(query) {
    return {
      ctes: sql`q as (select ${tsquery(query)} as q)`,
      from: sql`search_pages p cross join q`,
      where: sql`p.document @@ q.q`,
      tier: sql<number>`case when ts_filter(p.document, '{a}') @@ q.q then 3 when ts_filter(p.document, '{b}') @@ q.q then 2 else 1 end`,
      score: sql<number>`-ts_rank(p.document, q.q, 1)`,
      headings,
      body,
    };
  },

  // A one-word query from the title terms (postgres-title-terms.ts), when it qualifies; else null: the full ranking.
  matchingSpaces: (db, query, spaceIds, window, perSpace) => postgresTitleSpaces(db, query, JSON.stringify(query), tsquery(query), { headings, body }, spaceIds, window, perSpace),

  markRows: (db, query, rows) => markPostgresRows(db, JSON.stringify(query), tsquery(query), rows),

  writeTitleTerms: writePostgresTitleTerms,

  async lockSpace(db, spaceId) {
    await lockRows(db.selectFrom('search_spaces').select('space_id').where('space_id', '=', spaceId), 'postgres').execute();
  },

  async textsByBody(db, hashes) {
    return db.selectFrom('search_pages').distinctOn('body_hash').select(['body_hash', 'headings', 'body', 'sections']).where('body_hash', 'in', hashes).execute();
  },
};
