import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { inTransaction } from '../../src/context.ts';
import type { NewPage } from '../../src/content/writer.ts';
import { removeSpaces } from '../../src/modules/spaces/purge.ts';
import { matchingSpaces, type SpaceMatches } from '../../src/search/engine.ts';
import { parseSearchQuery } from '../../src/search/query.ts';
import { spaceScopeToken, titleTermsPath } from '../../src/search/dialects/sqlite-spaces.ts';
import { titleScores, type TitleCandidate } from '../../src/search/dialects/sqlite-title-terms.ts';
import { postgresTitleTermsPath } from '../../src/search/dialects/postgres-title-terms.ts';
import { BM25 } from '../../src/search/dialects/fts5-expression.ts';
import { changeContent, indexNow, spaceWithPages } from './support.ts';

/**
 * Organization search for one word answers from each space's title terms where it can (decision 0137): the
 * answers must be those of the full ranking, page for page and in the same order, on a seeded organization
 * and after its pages are edited, moved, removed and a space deleted.
 */

/** A fixed sequence of numbers in [0, 1): the same organization on every run. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const FILLER = ['alpha', 'bravo', 'delta', 'echo', 'foxtrot', 'harbor', 'lantern', 'meadow', 'quartz', 'summit'];

function pages(random: () => number, count: number, titled: number): NewPage[] {
  const pick = () => FILLER[Math.floor(random() * FILLER.length)];
  return Array.from({ length: count }, (_, i) => {
    // The first `titled` pages hold the word in their title, once to three times; some others in a heading or the body.
    const times = i < titled ? 1 + Math.floor(random() * 3) : 0;
    const title = [...Array.from({ length: times }, () => 'cluster'), ...Array.from({ length: Math.floor(random() * 4) }, pick), `${i}`].join(' ');
    const words = Array.from({ length: 3 + Math.floor(random() * 60) }, () => (random() < 0.1 ? 'cluster' : pick()));
    const heading = random() < 0.2 ? '## Cluster setup\n\n' : '';
    return { type: 'document' as const, title, markdown: `${heading}${words.join(' ')}.\n` };
  });
}

for (const dialect of dialects) {
  describe(`organization search from title terms [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    const spaceIds: string[] = [];
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const random = sequence(29);
      // Two spaces with many title matches, one with fewer than a space shows (ranked the full way), one with none.
      for (const [index, titled] of [30, 45, 4, 0].entries()) {
        spaceIds.push(await spaceWithPages(t.ctx, world.organizationId, pages(random, 60, titled), { title: `Space ${index}` }));
      }
      await indexNow(t.ctx);
    });
    after(() => t.close());

    const QUERIES = ['cluster', 'clusters', '"cluster"', 'CLUSTER', 'clu', 'harbor', 'cluster harbor', '"cluster setup"', 'quartz', '17', 'nothing'];
    const WINDOWS = [{ offset: 0, limit: 11 }, { offset: 1, limit: 2 }, { offset: 0, limit: 1 }];

    const paths = () => (dialect === 'sqlite' ? titleTermsPath : postgresTitleTermsPath);

    /** `only`: the readable spaces, by their index in `spaceIds`; all the organization's by default. */
    async function answer(text: string, window: { offset: number; limit: number }, enabled: boolean, only?: number[]): Promise<SpaceMatches> {
      paths().enabled = enabled;
      try {
        const ids = (only ?? []).map((index) => spaceIds[index]);
        const readable = only
          ? sql`(select id from spaces where id in (${sql.join(ids)}) and deleted_at is null)`
          : sql`(select id from spaces where organization_id = ${world.organizationId} and deleted_at is null)`;
        const listed = await sql<{ id: string }>`select id from ${readable} as readable`.execute(t.ctx.db);
        return await matchingSpaces(t.ctx, parseSearchQuery(text), { ids: listed.rows.map((row) => row.id), spaceIds: async () => readable }, window, 10);
      } finally {
        paths().enabled = true;
      }
    }

    /**
     * Every query and window answered both ways, by all spaces and by the two with many title matches (PostgreSQL
     * answers from title terms only when every readable space has enough): the same answers; how many spaces
     * the title terms answered.
     */
    async function assertSameAnswers(step: string, many: number[]): Promise<number> {
      const before = paths().spaces;
      for (const only of [undefined, many]) {
        for (const text of QUERIES) {
          for (const window of WINDOWS) {
            const full = await answer(text, window, false, only);
            const fromTerms = await answer(text, window, true, only);
            assert.deepEqual(fromTerms, full, `${step}: ${text} ${JSON.stringify(window)} ${JSON.stringify(only)}`);
          }
        }
      }
      return paths().spaces - before;
    }

    /** No title terms of a page the index no longer holds. */
    async function assertNoStrayTerms(): Promise<void> {
      const stray = await sql<{ n: number }>`select count(*) as n from search_title_terms t
        where not exists (select 1 from search_pages p where p.space_id = t.space_id and p.page_id = t.page_id)`.execute(t.ctx.db);
      assert.equal(Number(stray.rows[0].n), 0);
    }

    /**
     * The title terms' scores are the search's own, double for double, for every title match of three words:
     * SQLite's bm25() of the title tier; PostgreSQL's score for the word typed (a start: `'cluster':*`).
     */
    async function assertSameScores(): Promise<void> {
      for (const term of ['cluster', 'harbor', '17']) {
        if (dialect === 'postgres') {
          const rows = await sql<{ stored: number; searched: number; n: string }>`select t.score as stored, -ts_rank(p.document, to_tsquery('english'::regconfig, ${`'${term}':*`}), 1) as searched
            from search_title_terms t join search_pages p on p.space_id = t.space_id and p.page_id = t.page_id where t.term = ${term}`.execute(t.ctx.db);
          assert.ok(rows.rows.length > 0, term);
          for (const row of rows.rows) assert.equal(row.stored, row.searched, term);
          continue;
        }
        const all = await sql<TitleCandidate & { space_id: string }>`select doc_id, frequency, length, space_id from search_title_terms where term = ${term}`.execute(t.ctx.db);
        assert.ok(all.rows.length > 0, term);
        const scores = await titleScores(t.ctx.db, term, all.rows);
        for (const spaceId of new Set(all.rows.map((row) => row.space_id))) {
          const expected = await sql<{ doc_id: number; score: number }>`select rowid as doc_id, ${BM25} as score from search_fts
            where search_fts match ${`{title} : ("${term}") AND {scope} : "${spaceScopeToken(spaceId)}"`}`.execute(t.ctx.db);
          assert.equal(expected.rows.length, all.rows.filter((row) => row.space_id === spaceId).length, `${term}: every title match has its terms`);
          for (const row of expected.rows) assert.equal(scores.get(row.doc_id), row.score, `${term}, doc ${row.doc_id}`);
        }
      }
    }

    it('answers as the full ranking does on a seeded organization', async () => {
      await assertSameScores();
      assert.ok((await assertSameAnswers('seeded', [0, 1])) > 0, 'the title terms answered some spaces');
      const full = await answer('cluster', WINDOWS[0], false);
      assert.deepEqual([full.count, new Set(full.rows.map((row) => row.space_id)).size], [4, 4], 'every space has a hit');
      await assertNoStrayTerms();
    });

    it('still does after titles and bodies are edited, pages moved and removed, and a space deleted', async () => {
      const random = sequence(137);
      for (const spaceId of spaceIds.slice(0, 3)) {
        const rows = await t.ctx.db.selectFrom('search_pages').select(['page_id', 'title']).where('space_id', '=', spaceId).orderBy('page_id').execute();
        await changeContent(t.ctx, spaceId, (writer) => {
          rows.forEach((row, i) => {
            if (i % 7 === 0) writer.updatePage(row.page_id, { title: row.title.includes('cluster') ? row.title.replace(/cluster/g, 'lantern') : `cluster cluster ${row.title}` });
            else if (i % 7 === 1) writer.updatePage(row.page_id, { markdown: `${Array.from({ length: 1 + Math.floor(random() * 200) }, () => 'meadow').join(' ')}.\n` });
            else if (i % 7 === 2) writer.removePage(row.page_id);
            else if (i % 7 === 3) writer.updatePage(row.page_id, { title: `${row.title} moved` });
          });
        });
      }
      await indexNow(t.ctx);
      assert.ok((await assertSameAnswers('edited', [0, 1])) > 0);
      await assertNoStrayTerms();
      await assertSameScores();

      await inTransaction(t.ctx, (tx) => removeSpaces(tx, [spaceIds[1]]));
      assert.ok((await assertSameAnswers('space deleted', [0])) > 0);
      assert.equal((await answer('cluster', WINDOWS[0], true)).count, 3);
      await assertNoStrayTerms();
      await assertSameScores();
    });
  });
}
