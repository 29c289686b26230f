import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { SearchQuery } from '../query.ts';

/**
 * A word searched by its start (`"cluster"*`) costs FTS5 a merge of the doclists of every indexed term that
 * starts with it, in every statement that reads it, and twice there (the match, and BM25's count of the
 * pages holding it). Organization search runs one statement per space (sqlite-spaces.ts), so it paid that
 * merge once per space. When the index holds no term that starts with the word's token but the token
 * itself, `"cluster"*` and `"cluster"` match the same pages with the same instances, so the same BM25: the
 * word is then searched whole. The index's terms are read through an fts5vocab table of `search_fts`; the
 * word's token (FTS5 stems it: `pipeline` is `pipelin`) through a scratch FTS5 table with the tokenizer of
 * `search_fts`. All three tables are temporary, of this connection, and hold no data between calls. Searches
 * at once share the connection between their statements: each writes and reads its own rows of the scratch
 * table (rowids of its own) and deletes only those.
 */

/** The tokenizer of `search_fts` (migration 2026-11-26-0120): the scratch table must read words the same way. */
export const SEARCH_TOKENIZER = 'porter unicode61 remove_diacritics 2';

const prepared = new WeakSet<object>();
/** The next rowid of the scratch table to hand out: each call takes its own. */
let nextRow = 1;

async function prepareTables(db: Kysely<DB>): Promise<void> {
  if (prepared.has(db)) return;
  await sql`create virtual table if not exists temp.search_words using fts5(word, tokenize=${sql.lit(SEARCH_TOKENIZER)})`.execute(db);
  await sql`create virtual table if not exists temp.search_word_tokens using fts5vocab(temp, search_words, instance)`.execute(db);
  await sql`create virtual table if not exists temp.search_terms using fts5vocab(main, search_fts, row)`.execute(db);
  prepared.add(db);
}

/**
 * The tokens `search_fts` would write for each text, in order (the scratch table's tokenizer is the index's).
 * Used for a searched word (fts5-prefixes, the title terms' fast path) and for the titles the indexer writes
 * to `search_title_terms` (sqlite-title-terms.ts).
 */
export async function tokensOf(db: Kysely<DB>, texts: string[]): Promise<string[][]> {
  const tokens: string[][] = texts.map(() => []);
  if (texts.length === 0) return tokens;
  await prepareTables(db);
  const first = nextRow;
  nextRow += texts.length;
  const last = first + texts.length - 1;
  try {
    await sql`insert into temp.search_words (rowid, word) select ${first} + key, value from json_each(${JSON.stringify(texts)})`.execute(db);
    const rows = await sql<{ doc: number; term: string }>`select doc, term from temp.search_word_tokens where doc between ${first} and ${last} order by doc, offset`.execute(db);
    for (const row of rows.rows) tokens[row.doc - first].push(row.term);
  } finally {
    await sql`delete from temp.search_words where rowid between ${first} and ${last}`.execute(db);
  }
  return tokens;
}

/** The query with every prefix word that only its own token starts in the index searched as a whole word. */
export async function withoutIdlePrefixes(db: Kysely<DB>, query: SearchQuery): Promise<SearchQuery> {
  const prefixed = query.terms.flatMap((term, index) => (term.prefix ? [index] : []));
  if (prefixed.length === 0) return query;
  // The token of each word, as search_fts would write it: a word that is not one token keeps its prefix.
  const tokens = await tokensOf(db, prefixed.map((index) => query.terms[index].word));
  const terms = [...query.terms];
  for (const [at, index] of prefixed.entries()) {
    const token = tokens[at];
    if (token.length !== 1) continue;
    // The first indexed term after the token: nothing else starts with it when that one does not. Sought from
    // `token + U+0001`, not `> token`: fts5vocab counts the documents of every term it steps on, so `> token`
    // read the token's own doclist (20,000 pages for a common word, ~0.3 ms) only to skip it. No token holds
    // U+0001 (unicode61 reads control characters as separators), so no term lies between the two bounds.
    const next = await sql<{ term: string }>`select term from temp.search_terms where term >= ${`${token[0]}\u0001`} limit 1`.execute(db);
    if (next.rows[0]?.term.startsWith(token[0])) continue;
    terms[index] = { ...terms[index], prefix: false };
  }
  return { ...query, terms };
}
