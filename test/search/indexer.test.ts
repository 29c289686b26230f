import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { createSpace } from '../helpers/content-factory.ts';
import { inTransaction } from '../../src/context.ts';
import { setSpaceHead } from '../../src/content/head.ts';
import { RevisionWriter } from '../../src/content/writer.ts';
import { countPages } from '../../src/search/engine.ts';
import { indexSpace, indexStats } from '../../src/search/indexer.ts';
import { indexSpaceKey } from '../../src/search/index-job.ts';
import { scheduleSpaceIndex } from '../../src/search/changes.ts';
import { parseSearchQuery } from '../../src/search/query.ts';
import { SECTION_SEPARATOR } from '../../src/search/page-text.ts';
import { changeContent, indexNow, spaceWithPages } from './support.ts';

for (const dialect of dialects) {
  describe(`search index [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const rows = (spaceId: string) => t.ctx.db.selectFrom('search_pages').selectAll().where('space_id', '=', spaceId).orderBy('path').execute();
    const hits = (spaceId: string, text: string) => countPages(t.ctx, parseSearchQuery(text), { spaceId });
    const indexedRoot = async (spaceId: string) => (await t.ctx.db.selectFrom('search_spaces').select('root_hash').where('space_id', '=', spaceId).executeTakeFirst())?.root_hash;

    it('indexes document pages with their title, path, headings and body; groups, links and noIndex pages are left out', async () => {
      const spaceId = await spaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'Welcome', markdown: 'Intro words.\n\n## Install\n\nRun the installer.\n\n## Configure\n\nEdit the file.\n' },
        { type: 'group', title: 'Guides', pages: [{ type: 'document', title: 'Deploy', markdown: 'Ship it.\n' }] },
        { type: 'link', title: 'Elsewhere', target: { kind: 'url', url: 'https://example.com' } },
        { type: 'document', title: 'Secret', noIndex: true, markdown: 'Hidden from search.\n' },
      ]);
      assert.equal(await indexNow(t.ctx), 1);
      const indexed = await rows(spaceId);
      assert.deepEqual(indexed.map((row) => [row.title, row.path]), [['Deploy', 'guides/deploy'], ['Welcome', 'welcome']]);
      const welcome = indexed[1];
      assert.deepEqual(welcome.headings.split(SECTION_SEPARATOR), ['', 'Install', 'Configure']);
      assert.deepEqual(welcome.body.split(SECTION_SEPARATOR), ['Intro words.', 'Run the installer.', 'Edit the file.']);
      assert.deepEqual(JSON.parse(welcome.sections), ['', 'install', 'configure']);
      assert.equal(await hits(spaceId, 'hidden'), 0);
      assert.equal(await hits(spaceId, 'installer'), 1);
      const space = await t.ctx.db.selectFrom('spaces').innerJoin('revisions', 'revisions.id', 'spaces.revision_id').select('revisions.root').where('spaces.id', '=', spaceId).executeTakeFirstOrThrow();
      assert.equal(await indexedRoot(spaceId), space.root);
    });

    it('re-indexes only the pages that changed and removes the pages that are gone', async () => {
      const pages = ['Alpha', 'Beta', 'Gamma', 'Delta'].map((title) => ({ type: 'document' as const, title, markdown: `${title} original text.\n` }));
      const spaceId = await spaceWithPages(t.ctx, world.organizationId, pages);
      await indexNow(t.ctx);
      const first = t.clock.now().toISOString();
      assert.ok((await rows(spaceId)).every((row) => row.indexed_at === first));
      const ids = Object.fromEntries((await rows(spaceId)).map((row) => [row.title, row.page_id]));

      t.clock.advance(60_000);
      await changeContent(t.ctx, spaceId, (writer) => {
        writer.updatePage(ids.Beta, { markdown: 'Beta rewritten with zeppelins.\n' });
        writer.updatePage(ids.Gamma, { title: 'Gamma renamed' });
        writer.removePage(ids.Delta);
      });
      const parsed = indexStats.parsed;
      const report = await indexSpace(t.ctx, spaceId);
      assert.deepEqual([report.written, report.removed], [2, 1]);
      assert.equal(indexStats.parsed - parsed, 1, 'only the new body is parsed; the renamed page keeps its text');
      const second = t.clock.now().toISOString();
      const after = await rows(spaceId);
      assert.deepEqual(after.map((row) => [row.title, row.path, row.indexed_at === second]), [
        ['Alpha', 'alpha', false],
        ['Beta', 'beta', true],
        ['Gamma renamed', 'gamma-renamed', true],
      ]);
      assert.equal(await hits(spaceId, 'zeppelins'), 1);
      assert.equal(await hits(spaceId, 'delta'), 0, 'the removed page is gone from the full-text index too');
      assert.equal(await hits(spaceId, 'original'), 2);

      const again = await indexSpace(t.ctx, spaceId);
      assert.deepEqual([again.written, again.removed], [0, 0], 'an index that is up to date is left alone');
    });

    it('a page marked noIndex later leaves the index; unmarked, it comes back', async () => {
      const spaceId = await spaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Toggle', markdown: 'Marmalade recipe.\n' }]);
      await indexNow(t.ctx);
      const [row] = await rows(spaceId);
      await changeContent(t.ctx, spaceId, (writer) => writer.updatePage(row.page_id, { noIndex: true }));
      await indexNow(t.ctx);
      assert.equal(await hits(spaceId, 'marmalade'), 0);
      await changeContent(t.ctx, spaceId, (writer) => writer.updatePage(row.page_id, { noIndex: false }));
      await indexNow(t.ctx);
      assert.equal(await hits(spaceId, 'marmalade'), 1);
    });

    it('setSpaceHead enqueues the index job in the caller\'s transaction', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const publish = (tx: typeof t.ctx) =>
        inTransaction(tx, async (inner) => {
          const parent = (await inner.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow()).revision_id;
          const writer = await RevisionWriter.fromRevision(inner, parent);
          writer.addPage({ type: 'document', title: 'Quokka', markdown: 'A small marsupial.\n' });
          const { revisionId } = await writer.commit(inner, { spaceId, type: 'edits', parents: [parent] });
          await setSpaceHead(inner, spaceId, revisionId);
        });
      await assert.rejects(
        inTransaction(t.ctx, async (tx) => {
          await publish(tx);
          throw new Error('rolled back');
        }),
        /rolled back/,
      );
      assert.equal(await indexNow(t.ctx), 0, 'no job without the change');
      await publish(t.ctx);
      assert.equal(await indexNow(t.ctx), 1);
      assert.equal(await hits(spaceId, 'marsupial'), 1);
    });

    it('a change made while the index job runs gets a follow-up job', async () => {
      const spaceId = await spaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Busy', markdown: 'Text.\n' }]);
      // As if a worker had claimed the job and read the content already.
      await t.ctx.db.updateTable('jobs').set({ status: 'running', locked_by: 'elsewhere', locked_until: '2999-01-01T00:00:00.000Z' }).where('singleton_key', '=', indexSpaceKey(spaceId)).execute();
      await scheduleSpaceIndex(t.ctx, spaceId);
      const jobs = await t.ctx.db.selectFrom('jobs').select(['status', 'singleton_key']).where('payload', '=', JSON.stringify({ spaceId })).orderBy('singleton_key').execute();
      assert.deepEqual(jobs.map((job) => [job.singleton_key, job.status]), [[indexSpaceKey(spaceId), 'running'], [`${indexSpaceKey(spaceId)}:again`, 'pending']]);
      assert.equal(await indexNow(t.ctx), 1);
      assert.equal(await hits(spaceId, 'busy'), 1);
      await t.ctx.db.deleteFrom('jobs').where('singleton_key', '=', indexSpaceKey(spaceId)).execute();
    });

    it('a duplicated space reuses the text already indexed, and a removed space takes its index along', async () => {
      const original = await spaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'One', markdown: 'First body about otters.\n' },
        { type: 'document', title: 'Two', markdown: '# Heading\n\nSecond body about beavers.\n' },
      ]);
      await indexNow(t.ctx);
      const reply = await world.admin.api.post(`/v1/spaces/${original}/duplicate`);
      assert.equal(reply.status, 201);
      const copy = reply.body.id as string;
      const parsed = indexStats.parsed;
      assert.equal(await indexNow(t.ctx), 1);
      assert.equal(indexStats.parsed, parsed, 'no body parsed again');
      assert.equal(await hits(copy, 'beavers'), 1);
      assert.deepEqual((await rows(copy)).map((row) => row.headings), (await rows(original)).map((row) => row.headings));

      await t.ctx.db.deleteFrom('spaces').where('id', '=', copy).execute();
      assert.equal((await rows(copy)).length, 0);
      assert.equal(await indexedRoot(copy), undefined);
      assert.equal(await hits(copy, 'beavers'), 0);
      assert.equal(await hits(original, 'beavers'), 1);
      assert.deepEqual(await indexSpace(t.ctx, copy), { rootHash: null, written: 0, removed: 0 });
      if (dialect === 'sqlite') {
        // The full-text index follows its content table through the triggers, cascades included.
        const left = await sql<{ n: number }>`select count(*) as n from search_fts where search_fts match 'beavers'`.execute(t.ctx.db);
        assert.equal(left.rows[0].n, 1);
        await sql`insert into search_fts (search_fts) values ('integrity-check')`.execute(t.ctx.db);
      }
    });
  });
}
