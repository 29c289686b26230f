import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { DB } from '../db/types.ts';
import { postgresSearch } from './dialects/postgres.ts';
import { sqliteSearch } from './dialects/sqlite.ts';
import type { SearchQuery } from './query.ts';
import type { MatchSql, PageMatch, SearchDialect, SpaceMatches, Window } from './dialect.ts';

export type { PageMatch, SpaceMatches, Window };

export function searchDialect(dialect: DialectName): SearchDialect {
  return dialect === 'sqlite' ? sqliteSearch : postgresSearch;
}

/** Which spaces to look in: one space, or the ids a subquery selects. */
export type SpaceScope = { spaceId: string } | { spaceIds: Expression<unknown> };

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
