import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { tokensOf } from './fts5-prefixes.ts';

/**
 * SQLite: the terms of each indexed page's title (`search_title_terms`, migration 2026-11-29-0475), with what
 * FTS5's BM25 needs to order a term's title matches without scoring them all: how often the term is in the
 * title (`frequency`) and how many tokens the page's row holds in all (`length`, FTS5's own count from
 * `search_fts_docsize`). For one phrase in one column, BM25 grows with the frequency and falls with the length,
 * whatever the index's document frequencies and average length are at the time of the search: so among the
 * pages of one frequency, the best are those of the shortest rows (docs/decisions/0137). Written by the
 * indexer for every page it writes (sqliteSearch.writeTitleTerms); a page's terms go with its row (on delete
 * cascade: a removed page, a deleted space).
 */

const BATCH = 500;

/** FTS5's varints (SQLite's format: 7 bits a byte, high bit set while more follow), summed: a row's tokens. */
export function docsizeTokens(sz: Uint8Array): number {
  return varints(sz).reduce((sum, n) => sum + n, 0);
}

/** Writes the title terms of the pages of `spaceId` in `pageIds` again, from their rows in `search_pages` and `search_fts`. */
export async function writeSqliteTitleTerms(db: Kysely<DB>, spaceId: string, pageIds: string[]): Promise<void> {
  for (let i = 0; i < pageIds.length; i += BATCH) {
    const ids = pageIds.slice(i, i + BATCH);
    const json = JSON.stringify(ids);
    await sql`delete from search_title_terms where space_id = ${spaceId} and page_id in (select value from json_each(${json}))`.execute(db);
    const pages = await sql<{ doc_id: number; page_id: string; title: string; sz: Uint8Array }>`select p.doc_id, p.page_id, p.title, d.sz
      from search_pages p join search_fts_docsize d on d.id = p.doc_id
      where p.space_id = ${spaceId} and p.page_id in (select value from json_each(${json}))`.execute(db);
    const tokens = await tokensOf(db, pages.rows.map((page) => page.title));
    const rows: [string, string, number, number, number][] = [];
    pages.rows.forEach((page, at) => {
      const frequency = new Map<string, number>();
      for (const token of tokens[at]) frequency.set(token, (frequency.get(token) ?? 0) + 1);
      const length = docsizeTokens(page.sz);
      for (const [term, count] of frequency) rows.push([term, page.page_id, page.doc_id, count, length]);
    });
    if (rows.length === 0) continue;
    await sql`insert into search_title_terms (term, space_id, page_id, doc_id, frequency, length)
      select value ->> 0, ${spaceId}, value ->> 1, value ->> 2, value ->> 3, value ->> 4 from json_each(${JSON.stringify(rows)})`.execute(db);
  }
}

export interface TitleCandidate {
  doc_id: number;
  frequency: number;
  length: number;
}

/**
 * The candidates for the best `count` title matches of `term` in the space: for each frequency the term has in
 * the space's titles, its `count` pages of the shortest rows (ties by doc id, as FTS5 orders equal scores). The
 * best `count` by BM25 are among them. Fewer than `count` candidates: the space has fewer title matches.
 */
export async function titleCandidates(db: Kysely<DB>, term: string, spaceId: string, count: number): Promise<TitleCandidate[]> {
  const candidates: TitleCandidate[] = [];
  let below: number | null = null;
  for (;;) {
    // The next frequency down: one seek in the index.
    const next: { rows: { frequency: number | null }[] } = await sql<{ frequency: number | null }>`select max(frequency) as frequency from search_title_terms
      where term = ${term} and space_id = ${spaceId} ${below === null ? sql`` : sql`and frequency < ${below}`}`.execute(db);
    const frequency: number | null = next.rows[0]?.frequency ?? null;
    if (frequency === null) return candidates;
    const rows = await sql<TitleCandidate>`select doc_id, frequency, length from search_title_terms
      where term = ${term} and space_id = ${spaceId} and frequency = ${frequency} order by length, doc_id limit ${count}`.execute(db);
    candidates.push(...rows.rows);
    below = frequency;
  }
}

/** BM25's constants and the title's weight, as `BM25` (fts5-expression.ts) and FTS5's bm25() use them. */
const K1 = 1.2;
const B = 0.75;
const TITLE_WEIGHT = 10.0;

/**
 * FTS5's bm25() of `{title} : ("<term>")` (the title tier of sqlite-spaces.ts, whose other phrase, the space's
 * scope token, weighs 0) for each candidate, computed as FTS5 computes it, operation for operation in doubles:
 * the index's row count and token total from its averages record (`search_fts_data`, id 1), the rows with the
 * term in their title from the title terms (the same rows: written in the transaction that writes the index),
 * the logarithm by SQLite's `ln()` (the C library's, as FTS5's). test/search/title-terms.test.ts compares
 * these with bm25() itself. Read once per request, not once per space.
 */
export async function titleScores(db: Kysely<DB>, term: string, candidates: TitleCandidate[]): Promise<Map<number, number>> {
  const averages = await sql<{ block: Uint8Array }>`select block from search_fts_data where id = 1`.execute(db);
  const [rowCount, ...columnTokens] = varints(averages.rows[0]?.block ?? new Uint8Array());
  const tokens = columnTokens.reduce((sum, n) => sum + n, 0);
  const avgdl = tokens / rowCount;
  const hits = await sql<{ n: number }>`select count(*) as n from search_title_terms where term = ${term}`.execute(db);
  const logarithm = await sql<{ idf: number }>`select ln((${rowCount} - ${hits.rows[0].n} + 0.5) / (${hits.rows[0].n} + 0.5)) as idf`.execute(db);
  let idf = logarithm.rows[0].idf;
  if (!(idf > 0)) idf = 1e-6;
  const scores = new Map<number, number>();
  for (const { doc_id, frequency, length } of candidates) {
    let freq = 0.0;
    for (let i = 0; i < frequency; i++) freq += TITLE_WEIGHT;
    let score = 0.0;
    score += idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + (B * length) / avgdl)));
    scores.set(doc_id, -1.0 * score);
  }
  return scores;
}

/** FTS5's varints (SQLite's format: 7 bits a byte, high bit set while more follow), e.g. a row's tokens per column from `search_fts_docsize`. */
export function varints(bytes: Uint8Array): number[] {
  const values: number[] = [];
  let value = 0;
  for (let i = 0; i < bytes.length; i++) {
    value = value * 128 + (bytes[i] & 0x7f);
    if ((bytes[i] & 0x80) === 0) {
      values.push(value);
      value = 0;
    }
  }
  return values;
}
