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

/** The rows with their matches marked, when the engine marks them after reading (PostgreSQL). */
function markRows<Row extends { headings: string; body: string }>({ db, dialect }: Target, query: SearchQuery, rows: Row[]): Promise<Row[]> {
  const engine = searchDialect(dialect);
  return engine.markRows ? engine.markRows(db, query, rows) : Promise.resolve(rows);
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
  return markRows({ db, dialect }, query, (await statement.execute(db)).rows);
}

export async function countPages({ db, dialect }: Target, query: SearchQuery, scope: SpaceScope): Promise<number> {
  const m = searchDialect(dialect).match(query);
  const statement = sql<{ n: number }>`${withClause(m, hits(m, scope))} select count(*) as n from hits`;
  return Number((await statement.execute(db)).rows[0]?.n ?? 0);
}

/**
 * Matching pages grouped by space: how many spaces have any, and the spaces in the window, best first (each
 * ranked by its best page), with their best `perSpace` pages each, best first. `scope` gives the spaces twice:
 * as the list of their ids (the engine's own way) and as a maker of the subquery that selects them (the ranking
 * in SQL), called only when the engine's own way does not answer.
 */
export async function matchingSpaces(
  target: Target,
  query: SearchQuery,
  scope: { ids: string[]; spaceIds: () => Promise<Expression<unknown>> },
  window: Window,
  perSpace: number,
): Promise<SpaceMatches> {
  const engine = searchDialect(target.dialect);
  if (engine.matchingSpaces) {
    const answer = await engine.matchingSpaces(target.db, query, scope.ids, window, perSpace);
    if (answer) return { count: answer.count, rows: await markRows(target, query, answer.rows) };
  }
  return rankedSpaces(target, query, { spaceIds: await scope.spaceIds() }, window, perSpace);
}

/**
 * Every hit ranked in SQL: a window over the hits of each space. The count of matching spaces is read from the
 * same hits in the same statement (PostgreSQL reads them once: a CTE used twice is materialized), and the row
 * of the count comes back even when no page is in the window.
 */
async function rankedSpaces({ db, dialect }: Target, query: SearchQuery, scope: SpaceScope, window: Window, perSpace: number): Promise<SpaceMatches> {
  const m = searchDialect(dialect).match(query);
  const statement = sql<Omit<PageMatch, 'position'> & { n: number | string; position: number | string | null; tier: number | null; score: number | null }>`${withClause(
    m,
    hits(m, scope),
    sql`numbered as (select space_id, page_id, tier, score, row_number() over (partition by space_id order by tier desc, score, page_id) as position from hits)`,
    sql`best as (select space_id, tier, score from numbered where position = 1 order by tier desc, score, space_id limit ${window.limit} offset ${window.offset})`,
    sql`ranked as (select numbered.space_id, numbered.page_id, numbered.position, best.tier, best.score
      from numbered join best on best.space_id = numbered.space_id where numbered.position <= ${perSpace})`,
    sql`counted as (select count(distinct space_id) as n from hits)`,
    sql`shown as (select p.space_id, p.page_id, p.title, p.path, p.sections, ${m.headings} as headings, ${m.body} as body, ranked.position, ranked.tier, ranked.score
      from ${m.from} join ranked on ranked.space_id = p.space_id and ranked.page_id = p.page_id where ${m.where})`,
  )} select counted.n, shown.* from counted left join shown on true order by shown.tier desc, shown.score, shown.space_id, shown.position`;
  const result = (await statement.execute(db)).rows;
  const rows = result.flatMap(({ n: _n, tier, score: _score, position, ...row }) => (tier === null ? [] : [{ ...row, position: Number(position) }]));
  return { count: Number(result[0]?.n ?? 0), rows: await markRows({ db, dialect }, query, rows) };
}

