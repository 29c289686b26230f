import { sql, type Kysely } from 'kysely';
import { named } from '../../db/named-statements.ts';
import { tsqueryText } from './postgres-lexicon.ts';
import type { DB } from '../../db/types.ts';
import type { PageMatch, SpaceMatches, Window } from '../dialect.ts';
import type { SearchQuery } from '../query.ts';

/**
 * PostgreSQL: the lexemes of each indexed page's title with the page's score for that lexeme alone
 * (`search_title_terms`, migration 2026-11-29-0475), and every lexeme the index has held (`search_lexemes`).
 * A page's score, `-ts_rank(document, q, 1)`, depends on the page alone; for a query of one lexeme it is the
 * stored one. So an organization search for one word reads each space's best title matches by a range scan
 * `(term, space_id, score, page_id)` instead of reading and ranking every hit's tsvector (decision 0137).
 */

/** A lexeme as a tsquery of that lexeme alone, unchanged (no parsing, no stemming): quotes and backslashes doubled. */
const LEXEME_QUERY = sql`('''' || replace(replace(t.lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery`;

/** Writes again the title terms of the pages of `spaceId` in `pageIds`, and adds their lexemes to `search_lexemes`. */
export async function writePostgresTitleTerms(db: Kysely<DB>, spaceId: string, pageIds: string[]): Promise<void> {
  for (let i = 0; i < pageIds.length; i += 500) {
    const ids = pageIds.slice(i, i + 500);
    await sql`delete from search_title_terms where space_id = ${spaceId} and page_id = any(${ids}::text[])`.execute(db);
    await sql`insert into search_title_terms (term, space_id, page_id, score)
      select t.lexeme, p.space_id, p.page_id, -ts_rank(p.document, ${LEXEME_QUERY}, 1)
      from search_pages p cross join lateral unnest(ts_filter(p.document, '{a}')) t
      where p.space_id = ${spaceId} and p.page_id = any(${ids}::text[])`.execute(db);
    // In byte order: two writers adding the same new lexemes wait for each other in one order, never in a cycle.
    await sql`insert into search_lexemes (lexeme)
      select distinct l from search_pages p cross join lateral unnest(tsvector_to_array(p.document)) l
      where p.space_id = ${spaceId} and p.page_id = any(${ids}::text[]) order by 1 on conflict do nothing`.execute(db);
  }
}

/** `search_title_terms`' path: `enabled` is off only to compare it with the full ranking; `spaces` counts the spaces it answered. */
export const postgresTitleTermsPath = { enabled: true, spaces: 0 };

const LEXEME = /^'((?:[^']|'')+)'(:\*)?$/;

/**
 * The query's one lexeme, when the query is one word (no phrase) and PostgreSQL reads it as one lexeme (the
 * query's text as PostgreSQL parses it, kept by the query's key: postgres-lexicon.ts); whether it is a word
 * typed as a start (`:*`).
 */
async function titleLexeme(db: Kysely<DB>, query: SearchQuery, key: string, tsquery: ReturnType<typeof sql>): Promise<{ lexeme: string; prefix: boolean } | null> {
  if (query.phrases.length > 0 || query.terms.length !== 1) return null;
  const match = LEXEME.exec(await tsqueryText(db, key, tsquery));
  if (!match) return null;
  const lexeme = match[1].replace(/''/g, "'");
  if (lexeme.includes('\\')) return null;
  return { lexeme, prefix: Boolean(match[2]) };
}

/**
 * Matching spaces for a one-lexeme query when every readable space has at least `perSpace` title matches: each
 * space's best pages are its `perSpace` title terms of the lowest score (ties by page id), the spaces ordered
 * by their best page, then by id, as the full ranking orders them; every readable space counts. Null when the
 * query or a space does not qualify: the full ranking answers.
 */
export async function postgresTitleSpaces(
  db: Kysely<DB>,
  query: SearchQuery,
  key: string,
  tsquery: ReturnType<typeof sql>,
  headline: { headings: ReturnType<typeof sql>; body: ReturnType<typeof sql> },
  spaceIds: string[],
  window: Window,
  perSpace: number,
): Promise<SpaceMatches | null> {
  if (!postgresTitleTermsPath.enabled || spaceIds.length === 0) return null;
  const parsed = await titleLexeme(db, query, key, tsquery);
  if (parsed === null) return null;
  const { lexeme, prefix } = parsed;
  // In one statement: how many title matches each space has (up to `perSpace`), and, for a word typed as a
  // start, the next lexeme the index has held after it. The lexeme's score is a page's score for the query
  // only when no other lexeme starts with it (a page's rank counts every lexeme the start matches).
  const next = prefix ? sql`(select lexeme from search_lexemes where lexeme > ${lexeme} order by lexeme limit 1)` : sql`null::text`;
  // Named (decision 0147): its generic plan is the same index probes, per space and for the next lexeme.
  const counts = await named(sql<{ space_id: string; n: string | number; next: string | null }>`select s.id as space_id, (select count(*) from (select 1 from search_title_terms
      where term = ${lexeme} and space_id = s.id limit ${perSpace}) as found) as n, ${next} as next from unnest(${spaceIds}::text[]) as s(id)`).execute(db);
  if (counts.rows[0]?.next?.startsWith(lexeme)) return null;
  if (counts.rows.some((row) => Number(row.n) < perSpace)) return null;
  // Named: planned once per connection, then a generic plan (decision 0147). Each step is an index probe per space or
  // per page, whatever the organization's shape: each space's best title term, the window of spaces by it, those
  // spaces' best `perSpace` pages, the pages' rows.
  const rows = await named(sql<PageMatch>`with q as (select ${tsquery} as q),
    first as (select s.id as space_id, (select score from search_title_terms where term = ${lexeme} and space_id = s.id
      order by score, page_id limit 1) as score from unnest(${spaceIds}::text[]) as s(id)),
    best as (select space_id, score from first where score is not null order by score, space_id limit ${window.limit} offset ${window.offset}),
    ranked as (select best.space_id, t.page_id, row_number() over (partition by best.space_id order by t.score, t.page_id) as position, best.score
      from best cross join lateral (select page_id, score from search_title_terms
        where term = ${lexeme} and space_id = best.space_id order by score, page_id limit ${perSpace}) as t)
    select p.space_id, p.page_id, p.title, p.path, p.sections, ${headline.headings} as headings, ${headline.body} as body, ranked.position
    from search_pages p cross join q join ranked on ranked.space_id = p.space_id and ranked.page_id = p.page_id
    where p.document @@ q.q order by ranked.score, ranked.space_id, ranked.position`).execute(db);
  postgresTitleTermsPath.spaces += spaceIds.length;
  return { count: spaceIds.length, rows: rows.rows.map((row) => ({ ...row, position: Number(row.position) })) };
}
