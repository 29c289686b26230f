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
  let total = 0;
  let value = 0;
  for (let i = 0; i < sz.length; i++) {
    value = value * 128 + (sz[i] & 0x7f);
    if ((sz[i] & 0x80) === 0) {
      total += value;
      value = 0;
    }
  }
  return total;
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

/**
 * The candidates for the best `count` title matches of `term` in the space: for each frequency the term has in
 * the space's titles, its `count` pages of the shortest rows (ties by doc id, as FTS5 orders equal scores). The
 * best `count` by BM25 are among them. Fewer than `count` candidates: the space has fewer title matches.
 */
export async function titleCandidates(db: Kysely<DB>, term: string, spaceId: string, count: number): Promise<number[]> {
  const candidates: number[] = [];
  let below: number | null = null;
  for (;;) {
    // The next frequency down: one seek in the index.
    const next: { rows: { frequency: number | null }[] } = await sql<{ frequency: number | null }>`select max(frequency) as frequency from search_title_terms
      where term = ${term} and space_id = ${spaceId} ${below === null ? sql`` : sql`and frequency < ${below}`}`.execute(db);
    const frequency: number | null = next.rows[0]?.frequency ?? null;
    if (frequency === null) return candidates;
    const rows = await sql<{ doc_id: number }>`select doc_id from search_title_terms
      where term = ${term} and space_id = ${spaceId} and frequency = ${frequency} order by length, doc_id limit ${count}`.execute(db);
    for (const row of rows.rows) candidates.push(row.doc_id);
    below = frequency;
  }
}
