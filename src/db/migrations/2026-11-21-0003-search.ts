import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * Full-text search: one row per indexed page (`search_pages`: its title, path, headings and body text,
 * the hash of the body it was read from) and one per indexed space (`search_spaces`: the root hash of the
 * revision the index reflects). Both go with their space (on delete cascade).
 *
 * The database's own engine finds the words:
 * - SQLite: an FTS5 index over `search_pages` (external content, so the text is stored once), kept in step
 *   by triggers; Porter stemming over unicode61 tokens, diacritics folded, prefix indexes for 2 and 3
 *   characters. `doc_id` is the rowid the index refers to.
 * - PostgreSQL: a generated `document` column (title weighted A, headings B, body C, English stemming) with
 *   a GIN index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);

  await db.schema
    .createTable('search_spaces')
    .addColumn('space_id', 'text', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('root_hash', 'text', (c) => c.notNull())
    .addColumn('indexed_at', 'text', (c) => c.notNull())
    .execute();

  const pageColumns = <T extends string>(table: CreateTableBuilder<T>) =>
    table
      .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
      .addColumn('page_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('headings', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('body_hash', 'text', (c) => c.notNull())
      .addColumn('sections', 'text', (c) => c.notNull())
      .addColumn('indexed_at', 'text', (c) => c.notNull());

  if (dialect === 'sqlite') {
    await pageColumns(db.schema.createTable('search_pages').addColumn('doc_id', 'integer', (c) => c.primaryKey())).execute();
    await db.schema.createIndex('search_pages_page').on('search_pages').columns(['space_id', 'page_id']).unique().execute();
    await sql`create virtual table search_fts using fts5(
      title, headings, body,
      content='search_pages', content_rowid='doc_id',
      tokenize='porter unicode61 remove_diacritics 2', prefix='2 3'
    )`.execute(db);
    const remove = sql`insert into search_fts (search_fts, rowid, title, headings, body) values ('delete', old.doc_id, old.title, old.headings, old.body);`;
    const add = sql`insert into search_fts (rowid, title, headings, body) values (new.doc_id, new.title, new.headings, new.body);`;
    await sql`create trigger search_pages_insert after insert on search_pages begin ${add} end`.execute(db);
    await sql`create trigger search_pages_delete after delete on search_pages begin ${remove} end`.execute(db);
    await sql`create trigger search_pages_update after update on search_pages begin ${remove} ${add} end`.execute(db);
  } else {
    const weighted = sql`setweight(to_tsvector('english'::regconfig, title), 'A') || setweight(to_tsvector('english'::regconfig, headings), 'B') || setweight(to_tsvector('english'::regconfig, body), 'C')`;
    await pageColumns(db.schema.createTable('search_pages'))
      .addColumn('document', sql`tsvector`, (c) => c.notNull().generatedAlwaysAs(weighted).stored())
      .addPrimaryKeyConstraint('search_pages_pk', ['space_id', 'page_id'])
      .execute();
    await sql`create index search_pages_document on search_pages using gin (document)`.execute(db);
  }
  // Text is a function of the body alone: a body indexed anywhere (a duplicated space, a moved page) is reused, not parsed again.
  await db.schema.createIndex('search_pages_body').on('search_pages').column('body_hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') await sql`drop table search_fts`.execute(db);
  await db.schema.dropTable('search_pages').execute();
  await db.schema.dropTable('search_spaces').execute();
}
