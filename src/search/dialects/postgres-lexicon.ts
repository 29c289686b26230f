import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.ts';
import { keep, KeptTexts, own } from './kept.ts';
import { chunksOf, chunkWords, markText, queryLexemes, textWords, type ChunkWord, type ChunkWords, type ParsedToken, type QueryLexemes } from './postgres-marks.ts';

/**
 * What PostgreSQL's parser and its `english` configuration make of the chunks of shown texts (postgres-marks.ts),
 * learned in one statement per request for the chunks not yet known, and kept in a bounded cache: the words of
 * documentation repeat, so after a few requests almost every chunk is known and a request parses nothing. The words of
 * whole texts shown are kept too (bounded by their characters): a text shown again is marked without being cut up.
 */

/** At most this many chunks are kept (the oldest go first); longer chunks than MAX_KEPT_CHUNK are not kept. */
export const MAX_KEPT_CHUNKS = 100_000;
const MAX_KEPT_CHUNK = 200;
const MAX_KEPT_QUERIES = 1_000;
/** Texts' words are kept for texts of at most MAX_KEPT_TEXT characters, MAX_KEPT_TEXTS_CHARS characters in all. */
const MAX_KEPT_TEXT = 20_000;
const MAX_KEPT_TEXTS_CHARS = 2_000_000;

const known = new Map<string, ChunkWords>();
const queries = new Map<string, QueryLexemes>();
const queryTexts = new Map<string, string>();
const texts = new KeptTexts<ChunkWord[]>(MAX_KEPT_TEXT, MAX_KEPT_TEXTS_CHARS);

/** Forgets what was learned (tests). */
export function forgetLexicon(): void {
  known.clear();
  queries.clear();
  queryTexts.clear();
  texts.clear();
}

/** How many chunks were learned from PostgreSQL, in how many statements (for benches and tests). */
export const lexiconStats = { learned: 0, statements: 0 };

const PARSER = sql`(select cfgparser from pg_ts_config where oid = 'english'::regconfig)`;

/**
 * Each chunk's tokens, in order, with the lexemes the `english` configuration gives them: the first dictionary of
 * the token's type that recognizes it, as `ts_headline` and `to_tsvector` take them (null: no dictionary does).
 */
async function parseChunks(db: Kysely<DB>, texts: string[]): Promise<ParsedToken[][]> {
  const rows = await sql<{ i: string | number; tokens: ParsedToken[] }>`with map as (select maptokentype as tokid, array_agg(mapdict::regdictionary order by mapseqno) as dicts
      from pg_ts_config_map where mapcfg = 'english'::regconfig group by 1)
    select c.i, json_agg(json_build_array(t.alias, p.token, case when map.dicts is not null then coalesce(ts_lexize(map.dicts[1], p.token),
      (select l from unnest(map.dicts[2:]) with ordinality as d(dict, k) cross join lateral ts_lexize(d.dict, p.token) as l where l is not null order by k limit 1)) end)
      order by p.n) as tokens
    from unnest(${texts}::text[]) with ordinality as c(chunk, i)
    cross join lateral ts_parse(${PARSER}, c.chunk) with ordinality as p(tokid, token, n)
    join ts_token_type(${PARSER}) as t on t.tokid = p.tokid
    left join map on map.tokid = p.tokid
    group by c.i`.execute(db);
  const parsed: ParsedToken[][] = texts.map(() => []);
  for (const row of rows.rows) parsed[Number(row.i) - 1] = row.tokens;
  return parsed;
}

/** The words of each chunk, aligned with `chunks`: from the cache, and the chunks not yet known learned in one statement. */
async function wordsOf(db: Kysely<DB>, chunks: string[]): Promise<ChunkWords[]> {
  const words: ChunkWords[] = new Array(chunks.length);
  const unknown = new Map<string, number[]>();
  for (let i = 0; i < chunks.length; i++) {
    const found = known.get(chunks[i]);
    if (found !== undefined) words[i] = found;
    else unknown.get(chunks[i])?.push(i) ?? unknown.set(chunks[i], [i]);
  }
  if (unknown.size === 0) return words;
  const list = [...unknown.keys()];
  const parsed = await parseChunks(db, list);
  lexiconStats.statements++;
  lexiconStats.learned += list.length;
  list.forEach((chunk, k) => {
    const found = chunkWords(chunk, parsed[k]);
    for (const i of unknown.get(chunk)!) words[i] = found;
    if (chunk.length <= MAX_KEPT_CHUNK) keep(known, own(chunk), found, MAX_KEPT_CHUNKS);
  });
  return words;
}

/** The query as PostgreSQL parses it (`tsquery`, as text), kept by the query's key: asked once, not on every search. */
export async function tsqueryText(db: Kysely<DB>, key: string, tsquery: RawBuilder<unknown>): Promise<string> {
  const found = queryTexts.get(key);
  if (found !== undefined) return found;
  const row = await sql<{ q: string }>`select (${tsquery})::text as q`.execute(db);
  const text = row.rows[0]?.q ?? '';
  keep(queryTexts, key, text, MAX_KEPT_QUERIES);
  return text;
}

/** The query's lexemes as PostgreSQL parses it (`tsquery`), kept by the query's key. */
async function lexemesOf(db: Kysely<DB>, key: string, tsquery: RawBuilder<unknown>): Promise<QueryLexemes> {
  const found = queries.get(key);
  if (found) return found;
  const lexemes = queryLexemes(await tsqueryText(db, key, tsquery));
  keep(queries, key, lexemes, MAX_KEPT_QUERIES);
  return lexemes;
}

/** `rows` with their headings and body marked as `ts_headline(english, …, HighlightAll=true)` marks them. */
export async function markPostgresRows<Row extends { headings: string; body: string }>(db: Kysely<DB>, key: string, tsquery: RawBuilder<unknown>, rows: Row[]): Promise<Row[]> {
  if (rows.length === 0) return rows;
  const query = await lexemesOf(db, key, tsquery);
  if (query.exact.size === 0 && query.prefixes.length === 0) return rows;
  const shown = rows.flatMap((row) => [row.headings, row.body]);
  const words = shown.map((text) => texts.get(text));
  const missing = words.flatMap((found, i) => (found === undefined ? [i] : []));
  if (missing.length > 0) {
    const chunked = missing.map((i) => chunksOf(shown[i]));
    const found = await wordsOf(db, chunked.flatMap((text) => text.chunks));
    let at = 0;
    chunked.forEach(({ starts, chunks }, k) => {
      const i = missing[k];
      words[i] = textWords(starts, found.slice(at, (at += chunks.length)));
      texts.keep(shown[i], words[i]!);
    });
  }
  const marked = shown.map((text, i) => markText(text, words[i]!, query));
  return rows.map((row, i) => ({ ...row, headings: marked[2 * i], body: marked[2 * i + 1] }));
}
