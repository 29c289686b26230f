import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * SQLite: the terms of each indexed page's title, kept beside the FTS5 index, so that an organization search
 * for one word finds each space's best title matches without scoring every one of them (docs/decisions/0137,
 * src/search/dialects/sqlite-title-terms.ts): the term (FTS5's token), the page (its space, id and doc id),
 * how often the term is in the title and how many tokens the page's FTS5 row holds in all. A page's terms go
 * with its row. The rows of the pages already indexed are written here, tokenized by a temporary FTS5 table
 * with the index's tokenizer.
 *
 * PostgreSQL (src/search/dialects/postgres-title-terms.ts): the lexemes of each page's title (weight A of
 * `document`) with the page's rank for that lexeme alone (`-ts_rank(document, lexeme, 1)`, the search's own
 * score: it depends on the page alone), and `search_lexemes`, every lexeme any indexed page has held (written
 * with the pages, never removed: a superset), in byte order, so a search can tell whether another lexeme starts
 * with a word typed as a start. Both are written here from the pages already indexed.
 */
const TOKENIZER = 'porter unicode61 remove_diacritics 2';
const BATCH = 1_000;

function docsizeTokens(sz: Uint8Array): number {
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

/** A lexeme as a tsquery of that lexeme alone, unchanged (no parsing, no stemming): quotes and backslashes doubled. */
const LEXEME_QUERY = sql`('''' || replace(replace(t.lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery`;

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_title_terms (
    term text collate "C" not null,
    space_id text not null,
    page_id text not null,
    score real not null,
    primary key (term, space_id, page_id),
    foreign key (space_id, page_id) references search_pages (space_id, page_id) on delete cascade
  )`.execute(db);
  await sql`create index search_title_terms_rank on search_title_terms (term, space_id, score, page_id)`.execute(db);
  await sql`create index search_title_terms_page on search_title_terms (space_id, page_id)`.execute(db);
  await sql`create table search_lexemes (lexeme text collate "C" primary key)`.execute(db);
  await sql`insert into search_title_terms (term, space_id, page_id, score)
    select t.lexeme, p.space_id, p.page_id, -ts_rank(p.document, ${LEXEME_QUERY}, 1)
    from search_pages p cross join lateral unnest(ts_filter(p.document, '{a}')) t`.execute(db);
  await sql`insert into search_lexemes (lexeme) select distinct unnest(tsvector_to_array(document)) from search_pages order by 1`.execute(db);
  // Statistics now, not at autovacuum's next round: without them the planner reads a term's every row per space.
  await sql`analyze search_title_terms`.execute(db);
  await sql`analyze search_lexemes`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') return upPostgres(db);
  await sql`create table search_title_terms (
    term text not null,
    space_id text not null,
    page_id text not null,
    doc_id integer not null,
    frequency integer not null,
    length integer not null,
    primary key (term, space_id, frequency, length, doc_id),
    foreign key (space_id, page_id) references search_pages (space_id, page_id) on delete cascade
  ) without rowid`.execute(db);
  await sql`create index search_title_terms_page on search_title_terms (space_id, page_id)`.execute(db);

  await sql`create virtual table temp.search_title_words using fts5(title, tokenize=${sql.lit(TOKENIZER)})`.execute(db);
  await sql`create virtual table temp.search_title_tokens using fts5vocab(temp, search_title_words, instance)`.execute(db);
  await sql`create table temp.search_title_lengths (doc_id integer primary key, length integer not null)`.execute(db);
  try {
    for (let after = -1; ; ) {
      const pages = await sql<{ doc_id: number; title: string; sz: Uint8Array }>`select p.doc_id, p.title, d.sz
        from search_pages p join search_fts_docsize d on d.id = p.doc_id where p.doc_id > ${after} order by p.doc_id limit ${BATCH}`.execute(db);
      if (pages.rows.length === 0) break;
      after = pages.rows[pages.rows.length - 1].doc_id;
      await sql`delete from temp.search_title_words`.execute(db);
      await sql`delete from temp.search_title_lengths`.execute(db);
      await sql`insert into temp.search_title_lengths (doc_id, length) select value ->> 0, value ->> 1 from json_each(${JSON.stringify(pages.rows.map((page) => [page.doc_id, docsizeTokens(page.sz)]))})`.execute(db);
      await sql`insert into temp.search_title_words (rowid, title) select value ->> 0, value ->> 1 from json_each(${JSON.stringify(pages.rows.map((page) => [page.doc_id, page.title]))})`.execute(db);
      await sql`insert into search_title_terms (term, space_id, page_id, doc_id, frequency, length)
        select t.term, p.space_id, p.page_id, t.doc, count(*), l.length
        from temp.search_title_tokens t join search_pages p on p.doc_id = t.doc join temp.search_title_lengths l on l.doc_id = t.doc
        group by t.term, t.doc`.execute(db);
    }
  } finally {
    await sql`drop table temp.search_title_lengths`.execute(db);
    await sql`drop table temp.search_title_tokens`.execute(db);
    await sql`drop table temp.search_title_words`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`drop table search_lexemes`.execute(db);
  await sql`drop table search_title_terms`.execute(db);
}
