import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectGarbage } from '../../src/content/gc.ts';
import { analyzeRoot, clearLinkAnalysisCache, linkAnalysisStats, saveRevisionAnalysis, type RevisionLinks } from '../../src/content/link-analysis/cache.ts';
import { clearBodyFactsCache } from '../../src/content/link-analysis/facts.ts';
import { ANALYSIS_READING } from '../../src/content/link-analysis/saved.ts';
import { nowIso } from '../../src/context.ts';
import { findRevision } from '../../src/content/revisions.ts';
import { indexSpaceContent, keepSpaceAnalysis } from '../../src/search/changes.ts';
import { KEEP_ANALYSIS_AFTER_MS, keepLinkAnalysisKey } from '../../src/content/link-analysis/keep-job.ts';
import { runDueJobs } from '../../src/jobs/queue.ts';
import { appJobs } from '../../src/services.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, currentRevision, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';

const HOUR = 3_600_000;

/** What an analysis says, without the tree it was made from. */
function answer(analysis: RevisionLinks): unknown {
  return { usages: analysis.usages, byPage: [...analysis.byPage], fileBacklinks: [...analysis.fileBacklinks], spaces: analysis.spaces };
}

/** As a freshly started process finds things: nothing analysed or read in memory. */
function freshProcess(): void {
  clearLinkAnalysisCache();
  clearBodyFactsCache();
}

for (const dialect of dialects) {
  describe(`link analyses kept by revision [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const rootOf = async (spaceId: string) => (await findRevision(t.ctx, await currentRevision(t.ctx, spaceId)))!.root;
    const rows = async () => t.ctx.db.selectFrom('link_analyses').select(['root_hash', 'public_url', 'reading']).execute();
    /** The index job, and the keep job it enqueues, run as soon as they are due. */
    const indexJob = async (spaceId: string) => {
      await indexSpaceContent(t.ctx, spaceId);
      await keepSpaceAnalysis(t.ctx, spaceId);
    };

    /** A space whose links point at pages, anchors, files, spaces and URLs, some broken, in folders. */
    async function handbook(): Promise<{ spaceId: string; ids: Record<string, string> }> {
      const spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      const ids: Record<string, string> = {};
      await editContent(t.ctx, spaceId, async (writer) => {
        ids.logo = await addFile(t.ctx, writer, { name: 'logo.png', contentType: 'image/png', bytes: 'png' });
        ids.intro = writer.addPage({
          type: 'document',
          title: 'Intro',
          markdown: '# Welcome\n\n[install](install.md), [options](install.md#options), [nowhere](install.md#nowhere), [missing](missing.md), [up](#welcome).\n\n![logo](logo.png) ![gone](files/nofile) [ext](https://example.com/docs), [api](http://quire.test/v1/spaces/abc), [a space](spaces/other)\n',
        });
        ids.install = writer.addPage({ type: 'document', title: 'Install', markdown: `# Install\n\n## Options\n\n![](files/${ids.logo}) [intro](intro.md)\n` });
        ids.guides = writer.addPage({ type: 'group', title: 'Guides' });
        ids.configure = writer.addPage({ type: 'document', title: 'Configure', markdown: '[Back](../intro.md#welcome) and ![logo](../.gitbook/assets/logo.png)\n' }, { parent: ids.guides });
      });
      return { spaceId, ids };
    }

    it('keeps the analysis when the jobs run, and a fresh process reads it instead of computing, with the same answer', async () => {
      const { spaceId } = await handbook();
      await indexJob(spaceId);
      const root = await rootOf(spaceId);
      assert.deepEqual(
        (await rows()).filter((row) => row.root_hash === root),
        [{ root_hash: root, public_url: t.ctx.config.publicUrl.replace(/\/+$/, ''), reading: ANALYSIS_READING }],
      );
      freshProcess();
      const { built, restored } = linkAnalysisStats;
      const kept = answer(await analyzeRoot(t.ctx, root));
      assert.equal(linkAnalysisStats.restored, restored + 1, 'read from the kept row');
      assert.equal(linkAnalysisStats.built, built, 'not computed');

      await t.ctx.db.deleteFrom('link_analyses').execute();
      freshProcess();
      const computed = answer(await analyzeRoot(t.ctx, root));
      assert.equal(linkAnalysisStats.built, built + 1, 'computed without the row');
      assert.deepEqual(kept, computed);
      assert.equal(JSON.stringify(kept), JSON.stringify(computed), 'the same, byte for byte');
      assert.ok((computed as { usages: unknown[] }).usages.length >= 10);
    });

    it('answers the API the same, byte for byte, from the kept row as from computing', async () => {
      const { spaceId, ids } = await handbook();
      await indexJob(spaceId);
      const base = `/v1/spaces/${spaceId}`;
      const urls = [
        `${base}/links?limit=1000`,
        `${base}/links?status=broken`,
        `${base}/content/page/${ids.intro}/links`,
        `${base}/content/page/${ids.install}/backlinks`,
        `${base}/content/files/${ids.logo}/backlinks`,
      ];
      const answers = async () => {
        const bodies: string[] = [];
        for (const url of urls) {
          freshProcess();
          const reply = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${world.admin.token}` } });
          assert.equal(reply.statusCode, 200, reply.body);
          bodies.push(reply.body);
        }
        return bodies;
      };
      const { restored } = linkAnalysisStats;
      const kept = await answers();
      assert.equal(linkAnalysisStats.restored, restored + urls.length, 'every answer read the kept row');
      await t.ctx.db.deleteFrom('link_analyses').execute();
      const { built } = linkAnalysisStats;
      const computed = await answers();
      assert.equal(linkAnalysisStats.built, built + urls.length, 'every answer computed');
      assert.deepEqual(kept, computed);
    });

    it('never reads the row of another revision, another reading, another public URL, or one that names what the tree lacks', async () => {
      const { spaceId, ids } = await handbook();
      await indexJob(spaceId);
      const first = await rootOf(spaceId);
      await editContent(t.ctx, spaceId, (writer) => writer.updatePage(ids.install, { markdown: '# Install\n\nNo options any more.\n' }));
      const second = await rootOf(spaceId);
      freshProcess();
      let { built, restored } = linkAnalysisStats;
      const secondAnswer = answer(await analyzeRoot(t.ctx, second));
      assert.equal(linkAnalysisStats.built, built + 1, 'the new revision (not yet indexed) is computed');
      assert.equal(linkAnalysisStats.restored, restored);
      await indexJob(spaceId);
      freshProcess();
      assert.deepEqual(answer(await analyzeRoot(t.ctx, second)), secondAnswer);
      assert.equal(linkAnalysisStats.restored, restored + 1, 'its own row, once written');
      assert.deepEqual((await rows()).filter((row) => row.root_hash === first), [], 'the row of a revision no space is at is dropped');
      // Kept again by hand, so that its changes below are read (or not).
      await saveRevisionAnalysis(t.ctx, first);
      assert.equal((await rows()).filter((row) => row.root_hash === first).length, 1);

      const stale = async (change: () => Promise<unknown>) => {
        await change();
        freshProcess();
        ({ built, restored } = linkAnalysisStats);
        await analyzeRoot(t.ctx, first);
        assert.equal(linkAnalysisStats.built, built + 1, 'computed');
        assert.equal(linkAnalysisStats.restored, restored, 'not read');
      };
      await stale(() => t.ctx.db.updateTable('link_analyses').set({ reading: 'old' }).where('root_hash', '=', first).execute());
      await stale(() => t.ctx.db.updateTable('link_analyses').set({ reading: ANALYSIS_READING, public_url: 'https://elsewhere.test' }).where('root_hash', '=', first).execute());
      const [row] = await t.ctx.db.selectFrom('link_analyses').select('analysis').where('root_hash', '=', second).execute();
      await stale(async () => {
        await t.ctx.db.deleteFrom('link_analyses').where('root_hash', '=', first).execute();
        // The second revision's row under the first's root, naming a page that is not in the tree.
        const broken = row.analysis.replaceAll(ids.intro, 'not-a-page');
        await t.ctx.db.insertInto('link_analyses').values({ root_hash: first, public_url: t.ctx.config.publicUrl.replace(/\/+$/, ''), reading: ANALYSIS_READING, analysis: broken, created_at: nowIso(t.ctx) }).execute();
      });
    });

    it('keeps the analysis through the queue once a period, however often the space changes meanwhile', async () => {
      const { spaceId, ids } = await handbook();
      const keepJobs = () => t.ctx.db.selectFrom('jobs').select(['status', 'run_at']).where('singleton_key', '=', keepLinkAnalysisKey(spaceId)).execute();
      const registry = appJobs();
      const runDue = () => runDueJobs(t.ctx, { workerId: 'keep-test', registry, limit: 100 });
      await indexSpaceContent(t.ctx, spaceId); // the index job of the space's content
      const indexed = t.clock.now().getTime();
      const [job] = await keepJobs();
      assert.equal(job?.status, 'pending', 'the index job enqueued the keep job');
      assert.equal(Date.parse(job.run_at), indexed + KEEP_ANALYSIS_AFTER_MS);
      const first = await rootOf(spaceId);
      assert.deepEqual((await rows()).filter((row) => row.root_hash === first), [], 'nothing kept before it is due');

      // Edits within the period: each indexed at once, the keep job's due time unmoved.
      t.clock.advance(KEEP_ANALYSIS_AFTER_MS / 2);
      await editContent(t.ctx, spaceId, (writer) => writer.updatePage(ids.install, { markdown: '# Install\n\nSee [intro](intro.md).\n' }));
      await indexSpaceContent(t.ctx, spaceId);
      assert.deepEqual((await keepJobs()).map((row) => [row.status, Date.parse(row.run_at)]), [['pending', indexed + KEEP_ANALYSIS_AFTER_MS]]);

      t.clock.advance(KEEP_ANALYSIS_AFTER_MS / 2);
      await runDue();
      const current = await rootOf(spaceId);
      const kept = (await rows()).filter((row) => row.root_hash === current || row.root_hash === first).map((row) => row.root_hash);
      assert.deepEqual(kept, [current], 'the revision current when the job ran is kept, the one indexed first is not');
      assert.deepEqual(await keepJobs(), [], 'the job ran (a finished job gives its key up)');
      freshProcess();
      const { restored } = linkAnalysisStats;
      await analyzeRoot(t.ctx, current);
      assert.equal(linkAnalysisStats.restored, restored + 1, 'a fresh process reads it');
    });

    it('saves once per revision, and the collector sweeps rows whose revision is gone', async () => {
      const { spaceId } = await handbook();
      await indexJob(spaceId);
      const root = await rootOf(spaceId);
      const before = await t.ctx.db.selectFrom('link_analyses').select('created_at').where('root_hash', '=', root).executeTakeFirstOrThrow();
      t.clock.advance(HOUR);
      await saveRevisionAnalysis(t.ctx, root);
      const again = await t.ctx.db.selectFrom('link_analyses').select('created_at').where('root_hash', '=', root).executeTakeFirstOrThrow();
      assert.equal(again.created_at, before.created_at, 'kept as it was');

      await t.ctx.db.insertInto('link_analyses').values({ root_hash: 'gone-root', public_url: 'x', reading: ANALYSIS_READING, analysis: '{}', created_at: nowIso(t.ctx) }).execute();
      assert.equal((await collectGarbage(t.ctx, { dryRun: true })).derived.linkAnalyses, 0, 'within the grace');
      t.clock.advance(2 * HOUR);
      const dry = await collectGarbage(t.ctx, { dryRun: true });
      assert.ok(dry.derived.linkAnalyses >= 1, JSON.stringify(dry));
      const report = await collectGarbage(t.ctx);
      assert.equal(report.derived.linkAnalyses, dry.derived.linkAnalyses, 'the dry run counted what the run removed');
      assert.deepEqual((await rows()).filter((row) => row.root_hash === 'gone-root'), []);
      assert.ok((await rows()).some((row) => row.root_hash === root), 'a live revision keeps its row');
    });
  });
}
