import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import type { DB } from '../db/types.ts';
import type { SearchQuery } from './query.ts';

/**
 * Where SQLite's FTS5 and PostgreSQL's tsvector differ, behind one interface: how a query matches and
 * ranks pages, how matches are marked, how index writers of a space are serialized. The queries that
 * page through results are written once, here, from those pieces.
 */
export interface MatchSql {
  /** Common table expressions the pieces below rely on (PostgreSQL: the query, parsed once), or null. */
  ctes: RawBuilder<unknown> | null;
  /** The FROM clause: `search_pages` as `p`, with whatever the engine needs beside it. */
  from: RawBuilder<unknown>;
  /** The pages that match the query. */
  where: RawBuilder<SqlBool>;
  /** 3 when the title alone matches the query, 2 when the headings do, 1 otherwise. */
  tier: RawBuilder<number>;
  /** The engine's relevance; lower is better. */
  score: RawBuilder<number>;
  /**
   * `p.headings` and `p.body` with every match between MATCH_START and MATCH_END (src/search/page-text.ts), or, for an
   * engine with `markRows`, unmarked.
   */
  headings: RawBuilder<string>;
  body: RawBuilder<string>;
}

export interface BodyText {
  body_hash: string;
  headings: string;
  body: string;
  sections: string;
}

export interface SearchDialect {
  match(query: SearchQuery): MatchSql;
  /**
   * matchingSpaces of its own, when the engine has a cheaper way than ranking every hit in SQL (SQLite:
   * src/search/dialects/sqlite-spaces.ts; PostgreSQL, for one word: postgres-title-terms.ts); otherwise, or
   * when it answers null, the ranking in SQL (engine.ts) is used.
   */
  matchingSpaces?(db: Kysely<DB>, query: SearchQuery, spaceIds: string[], window: Window, perSpace: number): Promise<SpaceMatches | null>;
  /** Marks the matches in rows read unmarked (PostgreSQL: postgres-marks.ts); without it, the statements mark them. */
  markRows?<Row extends { headings: string; body: string }>(db: Kysely<DB>, query: SearchQuery, rows: Row[]): Promise<Row[]>;
  /**
   * Writes again what the engine keeps beside its full-text index for the pages of `pageIds` (written or
   * rewritten in this transaction): the title terms (sqlite-title-terms.ts, postgres-title-terms.ts). Removed
   * pages' go with their rows.
   */
  writeTitleTerms?(db: Kysely<DB>, spaceId: string, pageIds: string[]): Promise<void>;
  /** Holds off other index writers of the space until the transaction ends (the state row must exist). */
  lockSpace(db: Kysely<DB>, spaceId: string): Promise<void>;
  /** Indexed text of bodies already indexed somewhere: at most one row per body hash. */
  textsByBody(db: Kysely<DB>, hashes: string[]): Promise<BodyText[]>;
}

/** A page that matched, with its headings and body text marked. */
export interface PageMatch {
  space_id: string;
  page_id: string;
  title: string;
  path: string;
  sections: string;
  headings: string;
  body: string;
  /** Grouped by space: the page's place among the space's hits (1 for its best); 0 otherwise. */
  position: number;
}

export interface Window {
  offset: number;
  limit: number;
}

/** Spaces with matching pages: how many, and the pages of those in the window (see matchingSpaces). */
export interface SpaceMatches {
  count: number;
  rows: PageMatch[];
}
