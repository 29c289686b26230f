import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { DB } from '../db/types.ts';
import { postgresSearch } from './dialects/postgres.ts';
import { sqliteSearch } from './dialects/sqlite.ts';
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
  /** `p.headings` and `p.body` with every match between MATCH_START and MATCH_END (src/search/page-text.ts). */
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
   * src/search/dialects/sqlite-spaces.ts); otherwise the ranking below is used.
   */
  matchingSpaces?(db: Kysely<DB>, query: SearchQuery, spaceIds: string[], window: Window, perSpace: number): Promise<SpaceMatches>;
  /** Holds off other index writers of the space until the transaction ends (the state row must exist). */
  lockSpace(db: Kysely<DB>, spaceId: string): Promise<void>;
  /** Indexed text of bodies already indexed somewhere: at most one row per body hash. */
  textsByBody(db: Kysely<DB>, hashes: string[]): Promise<BodyText[]>;
}

export function searchDialect(dialect: DialectName): SearchDialect {
  return dialect === 'sqlite' ? sqliteSearch : postgresSearch;
}

/** Which spaces to look in: one space, or the ids a subquery selects. */
export type SpaceScope = { spaceId: string } | { spaceIds: Expression<unknown> };

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

type Target = { db: Kysely<DB>; dialect: DialectName };

function hits(m: MatchSql, scope: SpaceScope): RawBuilder<unknown> {
  const inScope = 'spaceId' in scope ? sql`p.space_id = ${scope.spaceId}` : sql`p.space_id in ${scope.spaceIds}`;
  return sql`hits as (select p.space_id, p.page_id, ${m.tier} as tier, ${m.score} as score from ${m.from} where ${m.where} and ${inScope})`;
}

function withClause(m: MatchSql, ...ctes: RawBuilder<unknown>[]): RawBuilder<unknown> {
  return sql`with ${sql.join(m.ctes ? [m.ctes, ...ctes] : ctes)}`;
}

/** The marked text of the pages in `ranked` (space_id, page_id, position, tier, score), in `order`. */
function marked(m: MatchSql, order: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select p.space_id, p.page_id, p.title, p.path, p.sections, ${m.headings} as headings, ${m.body} as body, ranked.position
    from ${m.from} join ranked on ranked.space_id = p.space_id and ranked.page_id = p.page_id
    where ${m.where} order by ${order}`;
}

/** Matching pages, best first: title matches, then heading matches, then body matches, each by relevance. */
export async function matchingPages({ db, dialect }: Target, query: SearchQuery, scope: SpaceScope, window: Window): Promise<PageMatch[]> {
  const m = searchDialect(dialect).match(query);
  const statement = sql<PageMatch>`${withClause(
    m,
    hits(m, scope),
    sql`ranked as (select space_id, page_id, 0 as position, tier, score from hits order by tier desc, score, page_id limit ${window.limit} offset ${window.offset})`,
  )} ${marked(m, sql`ranked.tier desc, ranked.score, ranked.page_id`)}`;
  return (await statement.execute(db)).rows;
}

export async function countPages({ db, dialect }: Target, query: SearchQuery, scope: SpaceScope): Promise<number> {
  const m = searchDialect(dialect).match(query);
  const statement = sql<{ n: number }>`${withClause(m, hits(m, scope))} select count(*) as n from hits`;
  return Number((await statement.execute(db)).rows[0]?.n ?? 0);
}

/**
 * Matching pages grouped by space: how many spaces have any, and the spaces in the window, best first (each
 * ranked by its best page), with their best `perSpace` pages each, best first.
 */
export async function matchingSpaces(target: Target, query: SearchQuery, scope: { spaceIds: Expression<unknown> }, window: Window, perSpace: number): Promise<SpaceMatches> {
  const engine = searchDialect(target.dialect);
  if (engine.matchingSpaces) {
    const readable = await sql<{ id: string }>`select id from ${scope.spaceIds} as readable`.execute(target.db);
    return engine.matchingSpaces(target.db, query, readable.rows.map((row) => row.id), window, perSpace);
  }
  const count = await countSpaces(target, query, scope);
  const rows = window.limit === 0 || window.offset >= count ? [] : await rankedSpaces(target, query, scope, window, perSpace);
  return { count, rows };
}

/** Every hit ranked in SQL: a window over the hits of each space. */
async function rankedSpaces({ db, dialect }: Target, query: SearchQuery, scope: SpaceScope, window: Window, perSpace: number): Promise<PageMatch[]> {
  const m = searchDialect(dialect).match(query);
  const statement = sql<PageMatch>`${withClause(
    m,
    hits(m, scope),
    sql`numbered as (select space_id, page_id, tier, score, row_number() over (partition by space_id order by tier desc, score, page_id) as position from hits)`,
    sql`best as (select space_id, tier, score from numbered where position = 1 order by tier desc, score, space_id limit ${window.limit} offset ${window.offset})`,
    sql`ranked as (select numbered.space_id, numbered.page_id, numbered.position, best.tier, best.score
      from numbered join best on best.space_id = numbered.space_id where numbered.position <= ${perSpace})`,
  )} ${marked(m, sql`ranked.tier desc, ranked.score, ranked.space_id, ranked.position`)}`;
  return (await statement.execute(db)).rows.map((row) => ({ ...row, position: Number(row.position) }));
}

async function countSpaces({ db, dialect }: Target, query: SearchQuery, scope: SpaceScope): Promise<number> {
  const m = searchDialect(dialect).match(query);
  const statement = sql<{ n: number }>`${withClause(m, hits(m, scope))} select count(distinct space_id) as n from hits`;
  return Number((await statement.execute(db)).rows[0]?.n ?? 0);
}
