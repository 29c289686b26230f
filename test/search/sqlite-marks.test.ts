import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type RawBuilder } from 'kysely';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { MATCH_END, MATCH_START, SECTION_SEPARATOR } from '../../src/search/page-text.ts';
import { parseSearchQuery, type SearchQuery } from '../../src/search/query.ts';
import { matchingSpaces } from '../../src/search/engine.ts';
import { SEARCH_TOKENIZER } from '../../src/search/dialects/fts5-prefixes.ts';
import { textMatch } from '../../src/search/dialects/fts5-expression.ts';
import { charClasses, CONTINUES, cutText, markedRuns, markText, SEPARATOR, STARTS } from '../../src/search/dialects/sqlite-marks.ts';
import { forgetMarks, markShownRows, marksStats } from '../../src/search/dialects/sqlite-marks-lexicon.ts';
import { indexNow, spaceWithPages } from './support.ts';

/**
 * SQLite's organization search marks the shown pages in Node (decision 0153): the marks must be FTS5's highlight()'s,
 * character for character, or the page must go to highlight() itself (the guard: Node's count of a column's tokens
 * against FTS5's own, search_fts_docsize).
 */

/** A fixed sequence of numbers in [0, 1): the same texts on every run. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const PIECES = [
  // ASCII words, their inflections, case, digits.
  'install', 'installs', 'Installation', 'INSTALLING', 'installer', 'guide', 'guides', 'Guide', 'run', 'running', 'runner', 'runs',
  'the', 'a', 'state', 'of', 'art', 'foo', 'bar', 'baz', 'x86', '64', '42', '3.14', '1,000,000', '2026-11-30', 'v1.2.3',
  // Accents: precomposed and combining, a combining mark at a word's start, marks SQLite does not take for diacritics.
  'café', 'cafe\u0301', 'été', 'e\u0301te\u0301', 'naïve', 'nai\u0308ve', 'Ärger', 'A\u0308rger', 'crème brûlée', 'résumé', 'resume',
  '\u0301abc', 'abc\u0301', 'a\u0305b', 'x\u0305', '\u0305', 'o\u0336k', 'Straße', 'İstanbul', 'ﬁnd', 'ｉｎｓｔａｌｌ', 'Å', 'Å',
  // Other scripts.
  'установка', 'Установки', 'текст', 'Ελληνικά', 'ΣΊΣΥΦΟΣ', 'σίσυφος', '日本語のテキスト', '中文搜索', '한국어', 'עברית', 'שָׁלוֹם',
  'العربية', 'ٱلْعَرَبِيَّة', '١٢٣', 'हिन्दी', 'ไทย', 'ᦰᦱ', 'ᦀᦰ', '𠀀𠀁', '\u0378', 'x\u0378y',
  // Emoji, symbols, private use, controls, the section separator, invisible characters.
  '😀', 'a😀b', '👩‍💻', '🇫🇷', '✓install', '™', '°C', '\ue123', 'x\uf8ffy', '\u{f0000}', '\u{10fffd}z',
  '\u0001', 'a\u0007b', '\u007f', '\u0085', 'x\u009fy', SECTION_SEPARATOR, '\u200b', 'zero\u200bwidth', 'join\u200dme', 'soft\u00adhyphen',
  // Apostrophes, hyphens, underscores, URLs, e-mails, paths, code.
  "don't", "O'Reilly's", 'l’été', 'state-of-the-art', 'foo-bar', 'foo–bar', 'x86-64', 'foo_bar', '__init__', 'fooBar.baz()',
  'https://example.com/install/guide?x=1#top', 'me@example.com', '/usr/local/bin/quire', 'C++', 'C#', 'node.js',
  // Long words (porter has a limit of its own past which it does not stem).
  'installation'.repeat(6), 'installations'.repeat(12), 'run'.repeat(30), 'é'.repeat(40),
];

const GAPS = [' ', ' ', ' ', ', ', '. ', '\t', '\n', '\r\n', SECTION_SEPARATOR, '\u00a0', '\u3000', '', '-', '/', '"', '(', ')'];

function text(random: () => number, words: number): string {
  let out = '';
  for (let i = 0; i < words; i++) out += PIECES[Math.floor(random() * PIECES.length)] + GAPS[Math.floor(random() * GAPS.length)];
  return out;
}

const TYPED = [
  'install', 'instal', 'installation', 'installing', 'guide', 'guid', 'gu', 'run', 'running', 'runner', 'ru', 'the', 'a', 'of',
  'install guide', 'run the', '"install guide"', '"state of the art"', '"the art"', '"foo bar"', '"foo bar baz"', '"run run"', '"the the"',
  'run "run run"', 'install install', '"install install"', 'cafe', 'café', 'caf', 'ete', 'été', 'naive', 'arger', 'resume', 'abc', 'ab',
  'установка', 'устан', 'текст', 'ελληνικά', 'ελλ', 'σισυφος', 'σίσυφος', '日本語のテキスト', '日本', '中文搜索', 'עברית', 'العربية', '١٢٣',
  'हिन्दी', 'ไทย', 'ᦰᦱ', 'ᦀ', '𠀀𠀁', 'x86', '64', '42', '3', '14', '000', 'reilly', 'don', 'foo', 'bar', 'init', 'example', 'com',
  'straße', 'strass', 'istanbul', 'find', 'fi', 'install', 'zero', 'width', 'soft', 'hyphen', 'join', 'me', 'usr', 'node', 'js',
  'installationinstallation', 'runrunrun', 'é', 'ee', '"x86 64"', 'a b', '"a b"', 'b',
];

/** Words that FTS5 reads as more than one token (`"foo-bar"` is a phrase of two), and prefixes of them. */
const BUILT: SearchQuery[] = [
  { terms: [{ word: 'foo-bar', prefix: false }], phrases: [] },
  { terms: [{ word: 'foo-ba', prefix: true }], phrases: [] },
  { terms: [{ word: 'state-of', prefix: true }, { word: 'art', prefix: false }], phrases: [] },
  { terms: [{ word: "don't", prefix: false }], phrases: [] },
  { terms: [{ word: 'x86_64', prefix: false }], phrases: [] },
  { terms: [{ word: 'install', prefix: false }], phrases: [['the', 'foo-bar']] },
];

const QUERIES: SearchQuery[] = [...TYPED.map((typed) => parseSearchQuery(typed)), ...BUILT];

describe('cutting and marking', () => {
  it('cuts ASCII at letters and digits, and joins overlapping instances as FTS5 does', () => {
    const cut = cutText('Foo_bar, x86-64!');
    assert.deepEqual([...cut.starts], [0, 4, 9, 13]);
    assert.deepEqual([...cut.ends], [3, 7, 12, 15]);
    // "a a" in "a a a" overlaps itself: one run. Adjacent instances of "a b" are two runs.
    assert.deepEqual(markedRuns(['a', 'a', 'a'], [{ tokens: ['a', 'a'], prefix: false }]), [0, 2]);
    assert.deepEqual(markedRuns(['a', 'b', 'a', 'b'], [{ tokens: ['a', 'b'], prefix: false }]), [0, 1, 2, 3]);
    assert.deepEqual(markedRuns(['x', 'ab', 'c'], [{ tokens: ['a'], prefix: true }, { tokens: ['ab', 'c'], prefix: false }, { tokens: [], prefix: false }]), [1, 2]);
    const marked = markText('Foo_bar, x86-64!', cut, [1, 2]);
    assert.equal(marked, `Foo_${MATCH_START}bar, x86${MATCH_END}-64!`);
  });
});

for (const dialect of dialects.filter((name) => name === 'sqlite')) {
  describe('SQLite marks made in Node', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    /**
     * Each query's matching rows of a scratch FTS5 table (the columns and tokenizer of `search_fts`): Node's marks
     * against highlight()'s. Returns the differences, how many texts were compared, how many marks, and the rows
     * that went to the fallback.
     */
    async function compare(rows: { headings: string; body: string }[], queries: SearchQuery[]) {
      await sql`drop table if exists temp.marks_fts`.execute(t.ctx.db);
      await sql`create virtual table temp.marks_fts using fts5(title, headings, body, scope, tokenize=${sql.lit(SEARCH_TOKENIZER)})`.execute(t.ctx.db);
      await sql`insert into temp.marks_fts (rowid, title, headings, body, scope) select key + 1, 'title', value ->> 0, value ->> 1, 'SCOPE'
        from json_each(${JSON.stringify(rows.map((row) => [row.headings, row.body]))})`.execute(t.ctx.db);
      const differences: string[] = [];
      const fallbacks = new Set<number>();
      let compared = 0;
      let marks = 0;
      for (const query of queries) {
        const theirs = await sql<{ id: number; headings: string; body: string; sz: Uint8Array; marked_headings: string; marked_body: string }>`select m.rowid as id,
            m.headings, m.body, d.sz, highlight(marks_fts, 1, ${MATCH_START}, ${MATCH_END}) as marked_headings, highlight(marks_fts, 2, ${MATCH_START}, ${MATCH_END}) as marked_body
          from temp.marks_fts m join temp.marks_fts_docsize d on d.id = m.rowid where marks_fts match ${textMatch(query)} order by m.rowid`.execute(t.ctx.db);
        const { marked, unsure } = await markShownRows(t.ctx.db, query, theirs.rows);
        for (const row of unsure) fallbacks.add(row.id);
        for (const ours of marked) {
          const row = theirs.rows.find((found) => found.id === ours.id)!;
          compared += 2;
          marks += `${ours.headings}${ours.body}`.split(MATCH_START).length - 1;
          if (ours.headings !== row.marked_headings) differences.push(`${JSON.stringify(query)} headings of ${row.id}: ${JSON.stringify(row.marked_headings)} ≠ ${JSON.stringify(ours.headings)}`);
          if (ours.body !== row.marked_body) differences.push(`${JSON.stringify(query)} body of ${row.id}: ${JSON.stringify(row.marked_body)} ≠ ${JSON.stringify(ours.body)}`);
        }
      }
      return { differences, compared, marks, fallbacks: fallbacks.size };
    }

    it('learns the classes of characters from FTS5', async () => {
      forgetMarks();
      await compare([{ headings: '\u0301x \u0305 \u19b0 \u0378 é', body: '' }], [parseSearchQuery('x')]);
      assert.equal(charClasses[0x301], CONTINUES, 'a diacritic continues a token, does not start one');
      assert.equal(charClasses[0x305], SEPARATOR, 'a combining mark SQLite does not take for a diacritic');
      assert.equal(charClasses[0xe9], STARTS);
    });

    it("marks what highlight() marks: generated texts of every kind × words, prefixes, phrases, multi-token words", async () => {
      const random = sequence(153);
      const rows = Array.from({ length: 400 }, () => ({ headings: text(random, Math.floor(random() * 6)), body: text(random, 1 + Math.floor(random() * 80)) }));
      // Long texts, past what is kept.
      rows.push({ headings: text(random, 3), body: text(random, 6_000) }, { headings: '', body: text(random, 20_000) });
      forgetMarks();
      const asks = marksStats.asks;
      const { differences, compared, marks, fallbacks } = await compare(rows, QUERIES);
      assert.deepEqual(differences.slice(0, 20), []);
      assert.ok(compared > 10_000, `${compared} texts compared`);
      assert.ok(marks > 20_000, `${marks} marks`);
      assert.equal(fallbacks, 0, 'every character is cut as SQLite cuts it: no page goes to highlight()');
      // Asked once per query at most: once the texts are known, a query costs one call for its own strings.
      assert.ok(marksStats.asks - asks <= QUERIES.length + 1, `${marksStats.asks - asks} calls`);
    });
  });
}

/** Pages of an organization's two spaces, of the kinds of text the generated rows hold. */
function orgPages(random: () => number) {
  return Array.from({ length: 24 }, (_, i) => ({
    type: 'document' as const,
    title: `${i % 3 === 0 ? 'Install' : 'Notes'} ${i}`,
    markdown: `${text(random, 8)}\n\n## ${text(random, 3)}\n\n${text(random, 40)}\n\n## Install guide\n\nRun the installer, then the guide: state-of-the-art café.\n`,
  }));
}

for (const dialect of dialects.filter((name) => name === 'sqlite')) {
  describe('SQLite organization search marks', () => {
    let t: TestApp;
    let world: World;
    const spaceIds: string[] = [];
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const random = sequence(29);
      for (const title of ['One', 'Two']) spaceIds.push(await spaceWithPages(t.ctx, world.organizationId, orgPages(random), { title }));
      await indexNow(t.ctx);
    });
    after(() => t.close());

    /** The organization's answer, and highlight()'s marks of the same pages (by doc id). */
    async function answer(typed: string) {
      const query = parseSearchQuery(typed);
      const found = await matchingSpaces(t.ctx, query, { ids: spaceIds, spaceIds: async () => sql`(select id from spaces where id in (${sql.join(spaceIds)}))` }, { offset: 0, limit: 10 }, 10);
      const docs = await sql<{ doc_id: number; page_id: string; space_id: string }>`select doc_id, page_id, space_id from search_pages`.execute(t.ctx.db);
      const docId = (row: { page_id: string; space_id: string }) => docs.rows.find((doc) => doc.page_id === row.page_id && doc.space_id === row.space_id)!.doc_id;
      const theirs = await sql<{ doc_id: number; headings: string; body: string }>`select search_fts.rowid as doc_id, highlight(search_fts, 1, ${MATCH_START}, ${MATCH_END}) as headings,
          highlight(search_fts, 2, ${MATCH_START}, ${MATCH_END}) as body from search_fts where search_fts match ${textMatch(query)}`.execute(t.ctx.db);
      const differences = found.rows.flatMap((row) => {
        const marked = theirs.rows.find((their) => their.doc_id === docId(row))!;
        return marked.headings === row.headings && marked.body === row.body ? [] : [`${typed}: ${row.page_id}`];
      });
      return { rows: found.rows, differences, docId };
    }

    it('marks the shown pages as highlight() does', async () => {
      forgetMarks();
      let shown = 0;
      for (const typed of ['install', 'instal', 'guide', '"install guide"', 'run the', 'cafe', 'state art', 'установка', 'foo-bar', '"state of the art"']) {
        const { rows, differences } = await answer(typed);
        assert.deepEqual(differences, []);
        shown += rows.length;
      }
      assert.ok(shown > 40, `${shown} pages shown`);
    });

    it("marks a page with highlight() where its token counts are not FTS5's", async () => {
      const first = await answer('install');
      const docId = first.docId(first.rows[0]);
      // The index holds the page's body with one word more than the page: an index out of step with its pages (its
      // sizes say one token more than Node reads). Shadow tables cannot be written: this goes through FTS5's own commands.
      const indexed = (body: RawBuilder<unknown>) =>
        sql`insert into search_fts (rowid, title, headings, body, scope) select doc_id, title, headings, ${body}, scope from search_fts_content where doc_id = ${docId}`;
      const remove = (body: RawBuilder<unknown>) =>
        sql`insert into search_fts (search_fts, rowid, title, headings, body, scope) select 'delete', doc_id, title, headings, ${body}, scope from search_fts_content where doc_id = ${docId}`;
      await remove(sql`body`).execute(t.ctx.db);
      await indexed(sql`body || ' extra'`).execute(t.ctx.db);
      try {
        const fallbacks = marksStats.fallbacks;
        const { rows, differences } = await answer('install');
        assert.deepEqual(differences, []);
        assert.equal(marksStats.fallbacks - fallbacks, 1, 'that one page went to highlight()');
        // The same pages (the extra word may move one by BM25).
        assert.deepEqual(rows.map((shown) => shown.page_id).sort(), first.rows.map((shown) => shown.page_id).sort());
        assert.ok(rows.find((shown) => shown.page_id === first.rows[0].page_id)!.body.includes(MATCH_START));
      } finally {
        await remove(sql`body || ' extra'`).execute(t.ctx.db);
        await indexed(sql`body`).execute(t.ctx.db);
      }
      const fallbacks = marksStats.fallbacks;
      assert.deepEqual((await answer('install')).differences, []);
      assert.equal(marksStats.fallbacks, fallbacks);
    });
  });
}
