import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { PageMatch, SpaceMatches, Window } from '../dialect.ts';
import { MATCH_END, MATCH_START } from '../page-text.ts';
import type { SearchQuery } from '../query.ts';
import { BM25, ftsExpression, textMatch } from './fts5-expression.ts';
import { tokensOf, withoutIdlePrefixes } from './fts5-prefixes.ts';
import { markShownRows } from './sqlite-marks-lexicon.ts';
import { titleCandidates, titleScores, type TitleCandidate } from './sqlite-title-terms.ts';

/**
 * SQLite: matching pages grouped by space, without a join or a window over every hit (docs/decisions/0065).
 * Each space is searched inside the FTS5 index (`{scope} : "<token>"`, migration 2026-11-26-0120), tier by
 * tier: the title, then the headings, then anywhere, each tier's hits ranked by FTS5 itself (BM25 of the
 * tier's columns, `order by … limit`), and the next tier read only while the space has fewer than
 * `perSpace` pages. So a title match still comes before a heading match and a body match, and the ranking
 * within a tier is exact: the cost is BM25 over the space's hits of the tiers read, done in C.
 */
const TIERS = [
  { tier: 3, columns: '{title}' },
  { tier: 2, columns: '{headings}' },
  { tier: 1, columns: '{title headings body}' },
] as const;

/** The token the `scope` column holds for a space: its id in hexadecimal, as SQLite's hex() writes it. */
export function spaceScopeToken(spaceId: string): string {
  return Buffer.from(spaceId, 'utf8').toString('hex').toUpperCase();
}

interface Ranked {
  spaceId: string;
  docId: number;
  tier: number;
  score: number;
}

/**
 * The pages of `ids`: FTS5 reads its index between their bounds (it seeks to them), and the list itself is
 * a filter on the rows it gives (`+rowid`: kept out of FTS5's plan, which would read the index once per id).
 */
function docIds(ids: number[]) {
  const [first, last] = ids.reduce(([lo, hi], id) => [Math.min(lo, id), Math.max(hi, id)], [Infinity, -Infinity]);
  return sql`search_fts.rowid >= ${first} and search_fts.rowid <= ${last} and +search_fts.rowid in (select value from json_each(${JSON.stringify(ids)}))`;
}

const byRank = (a: Ranked, b: Ranked) => b.tier - a.tier || a.score - b.score || a.docId - b.docId;

/** The best `perSpace` pages of one space: by tier, then by BM25 within the tier. */
async function bestOfSpace(db: Kysely<DB>, expression: string, spaceId: string, perSpace: number): Promise<Ranked[]> {
  const picked = new Map<number, Ranked>();
  const scope = `{scope} : "${spaceScopeToken(spaceId)}"`;
  for (const { tier, columns } of TIERS) {
    if (picked.size >= perSpace) break;
    // Pages of the tiers above are matched again here: read past them.
    const rows = await sql<{ doc_id: number; score: number }>`select rowid as doc_id, ${BM25} as score from search_fts
      where search_fts match ${`${columns} : (${expression}) AND ${scope}`} order by score, rowid limit ${perSpace}`.execute(db);
    for (const row of rows.rows) {
      if (picked.size >= perSpace) break;
      if (!picked.has(row.doc_id)) picked.set(row.doc_id, { spaceId, docId: row.doc_id, tier, score: row.score });
    }
  }
  return [...picked.values()];
}

/**
 * The title terms' path (bestTitleMatches): `enabled` is off only to compare it with the full ranking (tests,
 * bench/organization-profile.ts); `spaces` counts the spaces it answered, for tests.
 */
export const titleTermsPath = { enabled: true, spaces: 0 };

/** The query's one token, when the query is one word searched whole (no phrase) that is one token; else null. */
async function titleTerm(db: Kysely<DB>, query: SearchQuery): Promise<string | null> {
  if (query.phrases.length > 0 || query.terms.length !== 1 || query.terms[0].prefix) return null;
  const [tokens] = await tokensOf(db, [query.terms[0].word]);
  return tokens.length === 1 ? tokens[0] : null;
}

/**
 * A one-token query (docs/decisions/0137): the best `perSpace` pages of each space that has at least that many
 * title matches, from the title terms (sqlite-title-terms.ts) instead of BM25 over every title match. Each
 * space's candidates (its best pages are among them) are scored as FTS5's BM25 scores bestOfSpace's title
 * tier (titleScores, the index's statistics read once for all spaces): the same scores, so the same pages in
 * the same order. A space with fewer title matches is left out here, for bestOfSpace (the other tiers).
 */
async function bestTitleMatches(db: Kysely<DB>, term: string, spaceIds: string[], perSpace: number): Promise<Map<string, Ranked[]>> {
  const candidates = new Map<string, TitleCandidate[]>();
  for (const spaceId of spaceIds) {
    const found = await titleCandidates(db, term, spaceId, perSpace);
    if (found.length >= perSpace) candidates.set(spaceId, found);
  }
  if (candidates.size === 0) return new Map();
  const scores = await titleScores(db, term, [...candidates.values()].flat());
  const best = new Map<string, Ranked[]>();
  for (const [spaceId, found] of candidates) {
    const ranked = found.map(({ doc_id }) => ({ spaceId, docId: doc_id, tier: 3, score: scores.get(doc_id)! }));
    best.set(spaceId, ranked.sort(byRank).slice(0, perSpace));
    titleTermsPath.spaces++;
  }
  return best;
}

/** The text of the ranked pages, headings and body marked, by doc id; only pages of `spaceIds`. */
async function markedPages(db: Kysely<DB>, query: SearchQuery, spaceIds: string[], pages: Ranked[]): Promise<Map<number, Omit<PageMatch, 'position'>>> {
  if (pages.length === 0) return new Map();
  const ids = JSON.stringify(pages.map((page) => page.docId));
  // By primary key, without FTS5 matching the query again: marked in Node (sqlite-marks.ts, decision 0153).
  const rows = await sql<Omit<PageMatch, 'position'> & { doc_id: number; sz: Uint8Array | null }>`select p.doc_id, p.space_id, p.page_id, p.title, p.path, p.sections, p.headings, p.body, d.sz
    from search_pages p left join search_fts_docsize d on d.id = p.doc_id
    where p.doc_id in (select value from json_each(${ids})) and p.space_id in (${sql.join(spaceIds)})`.execute(db);
  const { marked, unsure } = await markShownRows(db, query, rows.rows);
  const found = new Map(marked.map(({ doc_id, ...row }) => [doc_id, row]));
  if (unsure.length > 0) for (const [docId, row] of await highlightedPages(db, query, spaceIds, unsure.map((row) => row.doc_id))) found.set(docId, row);
  return found;
}

/**
 * The pages of `ids` marked by FTS5's highlight(), which needs the query matched again over the whole index: only
 * for pages whose marks Node cannot vouch for (markShownRows).
 */
async function highlightedPages(db: Kysely<DB>, query: SearchQuery, spaceIds: string[], ids: number[]): Promise<Map<number, Omit<PageMatch, 'position'>>> {
  const rows = await sql<Omit<PageMatch, 'position'> & { doc_id: number }>`select search_fts.rowid as doc_id, p.space_id, p.page_id, p.title, p.path, p.sections,
      highlight(search_fts, 1, ${MATCH_START}, ${MATCH_END}) as headings, highlight(search_fts, 2, ${MATCH_START}, ${MATCH_END}) as body
    from search_fts join search_pages p on p.doc_id = search_fts.rowid
    where search_fts match ${textMatch(query)}
      and ${docIds(ids)} and p.space_id in (${sql.join(spaceIds)})`.execute(db);
  return new Map(rows.rows.map(({ doc_id, ...row }) => [doc_id, row]));
}

/**
 * The spaces of `spaceIds` with matching pages: how many, and those in `window`, best first (each ranked by
 * its best page), with their best `perSpace` pages each, best first.
 */
export async function sqliteMatchingSpaces(db: Kysely<DB>, asked: SearchQuery, spaceIds: string[], window: Window, perSpace: number): Promise<SpaceMatches> {
  // Read once here rather than in each space's statements (fts5-prefixes.ts).
  const query = spaceIds.length > 1 ? await withoutIdlePrefixes(db, asked) : asked;
  const expression = ftsExpression(query);
  const term = titleTermsPath.enabled ? await titleTerm(db, query) : null;
  const titled = term === null ? new Map<string, Ranked[]>() : await bestTitleMatches(db, term, spaceIds, perSpace);
  const spaces: Ranked[][] = [];
  for (const spaceId of spaceIds) {
    const pages = titled.get(spaceId) ?? (await bestOfSpace(db, expression, spaceId, perSpace));
    if (pages.length > 0) spaces.push(pages.sort(byRank));
  }
  spaces.sort((a, b) => byRank(a[0], b[0]) || (a[0].spaceId < b[0].spaceId ? -1 : 1));
  const shown = spaces.slice(window.offset, window.offset + window.limit);
  const marked = await markedPages(db, query, shown.map((pages) => pages[0].spaceId), shown.flat());
  const rows = shown.flatMap((pages) =>
    pages.flatMap((page, index) => {
      const row = marked.get(page.docId);
      return row ? [{ ...row, position: index + 1 }] : [];
    }),
  );
  return { count: spaces.length, rows };
}
