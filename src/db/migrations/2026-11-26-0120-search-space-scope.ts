import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * SQLite: the FTS5 index learns which space a page is in, so a search can be narrowed to one space inside
 * the index (`{scope} : "<token>"`) instead of joining every hit to `search_pages` (docs/decisions/0065).
 * A fourth column, `scope`, holds one token per page: the space id in hexadecimal (SPACE_SCOPE below,
 * spaceScopeToken in src/search/dialects/sqlite.ts), read through the view `search_fts_content` (the
 * index's external content), so `search_pages` keeps its columns. The index is rebuilt from the content.
 * PostgreSQL: nothing changes (a page's space is a column of the indexed row there).
 */
const SPACE_SCOPE = 'hex(space_id)';
const OLD_COLUMNS = 'title, headings, body';

async function dropIndex(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ['search_pages_insert', 'search_pages_delete', 'search_pages_update']) await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  await sql`drop table if exists search_fts`.execute(db);
}

async function createIndex(db: Kysely<unknown>, scoped: boolean): Promise<void> {
  const columns = scoped ? `${OLD_COLUMNS}, scope` : OLD_COLUMNS;
  const content = scoped ? 'search_fts_content' : 'search_pages';
  await sql`create virtual table search_fts using fts5(
    ${sql.raw(columns)},
    content=${sql.lit(content)}, content_rowid='doc_id',
    tokenize='porter unicode61 remove_diacritics 2', prefix='2 3'
  )`.execute(db);
  const values = (row: 'old' | 'new') => sql.raw(`${row}.doc_id, ${row}.title, ${row}.headings, ${row}.body${scoped ? `, hex(${row}.space_id)` : ''}`);
  const remove = sql`insert into search_fts (search_fts, rowid, ${sql.raw(columns)}) values ('delete', ${values('old')});`;
  const add = sql`insert into search_fts (rowid, ${sql.raw(columns)}) values (${values('new')});`;
  await sql`create trigger search_pages_insert after insert on search_pages begin ${add} end`.execute(db);
  await sql`create trigger search_pages_delete after delete on search_pages begin ${remove} end`.execute(db);
  await sql`create trigger search_pages_update after update on search_pages begin ${remove} ${add} end`.execute(db);
  await sql`insert into search_fts (search_fts) values ('rebuild')`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await dropIndex(db);
  await sql`create view search_fts_content as select doc_id, title, headings, body, ${sql.raw(SPACE_SCOPE)} as scope from search_pages`.execute(db);
  await createIndex(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await dropIndex(db);
  await sql`drop view search_fts_content`.execute(db);
  await createIndex(db, false);
}
