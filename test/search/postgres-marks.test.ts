import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { MATCH_END, MATCH_START, pageText, SECTION_SEPARATOR } from '../../src/search/page-text.ts';
import { parseSearchQuery } from '../../src/search/query.ts';
import { chunksOf, queryLexemes } from '../../src/search/dialects/postgres-marks.ts';
import { forgetLexicon, lexiconStats, markPostgresRows } from '../../src/search/dialects/postgres-lexicon.ts';
import { tsquery } from '../../src/search/dialects/postgres.ts';

/**
 * PostgreSQL's marks are made in Node from PostgreSQL's parse (decision 0147): they must be those `ts_headline`
 * makes, character for character, on tricky texts and on the corpus's pages.
 */

const TRICKY = [
  'The state-of-the-art installer; state art. Installing the "Installation Guide" step-by-step.',
  'Visit http://example.com/install/guide?x=1#top or https://docs.example.org, mail me@example.com, host foo.bar.com.',
  'Version v1.2.3 and 2.0.1-beta, -5, +7, 3.14, 1.5e3, 1,000,000 and x86-64 on arm64; 42nd 3rd.',
  "Don't stop: O'Reilly's guide isn't the users' guide; it's rock'n'roll.",
  'Café, naïve façade, Ärger, Straße, crème brûlée, résumé and resume; ÉCOLE.',
  'Русский текст установка, Ελληνικά, 日本語のテキスト, 中文 搜索, עברית, العربية.',
  'Code: foo_bar(), fooBar.baz(), npm install --save-dev, C++ and C#, node.js, /usr/local/bin/quire, ~/x.txt, e.g. i.e.',
  'Tags <b>install</b> and <a href="install guide">link</a>, a < b and c > d, 1 <2> 3, &amp; &lt;install&gt;.',
  `Heading one${SECTION_SEPARATOR}Heading two${SECTION_SEPARATOR}${SECTION_SEPARATOR}Install`,
  'Tabs\tand\nnew lines\r\n  and  many   spaces\u00a0non-breaking\u2003em space installs.',
  'The a an of to in is it and or but not: only stop words, and then some installers install installed installing.',
  'Quick brown fox; the fox is quick. Brown dogs are quicker than quick foxes, quickly.',
  '',
];

const QUERIES = ['instal', 'install guide', '"installation guide"', 'state art', '"state of the art"', 'the', 'guid', 'cafe', 'café',
  'example', 'http', 'foo', 'bar', 'v1', '2', 'x86', 'reilly', 'don', 'установка', 'текст', 'ελληνικά', 'quick brown', '"quick brown"',
  'fox', 'b', 'amp', 'usr', 'node', 'js', 'e', 'resume', 'straße', 'ecole', 'heading two', 'tabs', 'space'];

describe('chunks and query lexemes', () => {
  it('cuts at white space, keeps an open tag whole, reads operands', () => {
    const text = 'a  b\u001ec <x y="1 2">d';
    assert.deepEqual(chunksOf(text), { starts: [0, 3, 5, 7], chunks: ['a', 'b', 'c', '<x y="1 2">d'] });
    const q = queryLexemes(`'instal':* & 'it''s' <-> 'guid' & 'a\\\\b':*`);
    assert.deepEqual([...q.exact], ["it's", 'guid']);
    assert.deepEqual(q.prefixes, ['instal', 'a\\b']);
  });
});

for (const dialect of dialects.filter((name) => name === 'postgres')) {
  describe('PostgreSQL marks made in Node', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    async function compare(texts: string[], queries: string[]) {
      const differences: string[] = [];
      let marks = 0;
      for (const text of queries) {
        const query = parseSearchQuery(text);
        const rows = texts.map((body) => ({ headings: '', body }));
        const ours = await markPostgresRows(t.ctx.db, JSON.stringify(query), tsquery(query), rows);
        const theirs = await sql<{ body: string }>`select ts_headline('english', b, ${tsquery(query)},
          ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, HighlightAll=true`}) as body from unnest(${texts}::text[]) with ordinality as b(b, i) order by i`.execute(t.ctx.db);
        marks += ours.reduce((n, row) => n + row.body.split(MATCH_START).length - 1, 0);
        theirs.rows.forEach((row, i) => {
          if (row.body !== ours[i].body) differences.push(`${text}: ${JSON.stringify(row.body)} ≠ ${JSON.stringify(ours[i].body)}`);
        });
      }
      return { differences, marks };
    }

    it("marks what ts_headline marks in tricky texts", async () => {
      forgetLexicon();
      const { differences, marks } = await compare(TRICKY, QUERIES);
      assert.deepEqual(differences, []);
      assert.ok(marks > 50, `${marks} marks`);
    });

    it("marks what ts_headline marks in the corpus's pages, parsing each chunk once", async () => {
      const folder = join(import.meta.dirname, '..', 'content', 'corpus');
      const texts = readdirSync(folder).flatMap((name) => {
        const text = pageText(readFileSync(join(folder, name), 'utf8'));
        return [text.headings, text.body];
      });
      const words = [...new Set(texts.join(' ').toLowerCase().match(/\p{L}{3,}/gu) ?? [])];
      const queries = [...words.filter((_, i) => i % 17 === 0), ...words.filter((_, i) => i % 29 === 0).map((w) => w.slice(0, 3))];
      queries.push(`"${words[3]} ${words[4]}"`, `${words[5]} ${words[8]}`);
      forgetLexicon();
      const before = lexiconStats.statements;
      const { differences, marks } = await compare(texts, queries);
      assert.deepEqual(differences, []);
      assert.ok(marks > 50, `${marks} marks`);
      assert.equal(lexiconStats.statements - before, 1, 'the chunks are parsed in one statement, then known');
    });
  });
}
