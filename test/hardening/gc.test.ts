import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { collectGarbage, scheduleGarbageCollection } from '../../src/content/gc.ts';
import { collectGarbageJob } from '../../src/content/gc-job.ts';
import { runDueJobs } from '../../src/jobs/queue.ts';
import { storeBlob } from '../../src/content/files.ts';
import { objectHash, putObject } from '../../src/content/objects.ts';
import { RevisionWriter } from '../../src/content/writer.ts';
import { clearTreeCache } from '../../src/content/tree.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, createSpaceWithPages, currentRevision, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { startLocalS3, type LocalS3 } from '../scale/s3-server.ts';

const QUIRE = join(import.meta.dirname, '..', '..', 'bin', 'quire');
const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe(`garbage collection of the content store [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(async () => t.close());

    const hasObject = async (hash: string) => (await t.ctx.db.selectFrom('content_objects').select('hash').where('hash', '=', hash).executeTakeFirst()) !== undefined;
    const hasRevision = async (id: string) => (await t.ctx.db.selectFrom('revisions').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    const hasBlobRow = async (hash: string) => (await t.ctx.db.selectFrom('content_blobs').select('hash').where('hash', '=', hash).executeTakeFirst()) !== undefined;

    it('removes what nothing reaches once older than the grace, and keeps history, change requests and young content readable', async () => {
      const api = world.admin.api;
      const spaceId = await createSpace(t.ctx, world.organizationId);
      let pageId = '';
      let fileBlob = '';
      const v1 = await editContent(t.ctx, spaceId, async (writer) => {
        pageId = writer.addPage({ type: 'document', title: 'Alpha', markdown: 'The first words of alpha.\n' });
        const fileId = await addFile(t.ctx, writer, { name: 'kept.txt', contentType: 'text/plain', bytes: 'bytes of a kept file' });
        fileBlob = writer.fileList().find((file) => file.id === fileId)!.blob;
      });
      const v2 = await editContent(t.ctx, spaceId, (writer) => writer.updatePage(pageId, { markdown: 'The second words of alpha.\n' }));
      const changeRequest = await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Kept' });
      assert.equal(changeRequest.status, 201, JSON.stringify(changeRequest.body));

      // Orphans: an abandoned write (a revision nothing attaches), a lone object and blob, a purged space.
      const abandoned = await RevisionWriter.fromRevision(t.ctx, v2);
      abandoned.updatePage(pageId, { markdown: 'Words nobody kept.\n' });
      const orphanBlob = (await storeBlob(t.ctx, Buffer.from('bytes nobody kept'))).blob;
      abandoned.addFile({ name: 'lost.txt', contentType: 'text/plain', blob: orphanBlob, size: 17 });
      const { revisionId: orphan, root: orphanRoot } = await abandoned.commit(t.ctx, { spaceId, type: 'edits', parents: [v2] });
      const lonely = await putObject(t.ctx, 'body', 'A body no page holds.\n');
      const purged = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Gone', markdown: 'Purged words.\n' }]);
      await t.ctx.db.deleteFrom('spaces').where('id', '=', purged.spaceId).execute();
      const purgedBody = objectHash('body', 'Purged words.\n');

      // Within the grace, nothing goes.
      const early = await collectGarbage(t.ctx);
      assert.deepEqual(early.removed, { revisions: 0, objects: 0, blobs: 0, blobBytes: 0 });

      t.clock.advance(2 * HOUR);
      const youngOrphan = await putObject(t.ctx, 'body', 'Written just now.\n');
      const dry = await collectGarbage(t.ctx, { dryRun: true });
      assert.ok(dry.removed.revisions >= 3 && dry.removed.objects >= 4 && dry.removed.blobs === 1, JSON.stringify(dry));
      assert.ok(await hasRevision(orphan), 'a dry run removes nothing');

      const report = await collectGarbage(t.ctx);
      assert.deepEqual(report.removed, dry.removed, 'the dry run counted what the run removed');
      assert.equal(await hasRevision(orphan), false);
      assert.equal(await hasObject(orphanRoot), false);
      assert.equal(await hasObject(objectHash('body', 'Words nobody kept.\n')), false);
      assert.equal(await hasObject(lonely), false);
      assert.equal(await hasRevision(purged.revisionId), false);
      assert.equal(await hasObject(purgedBody), false);
      assert.equal(await hasBlobRow(orphanBlob), false);
      assert.equal(await t.ctx.blobs.has(orphanBlob), false, 'the bytes went with the row');
      assert.ok(await hasObject(youngOrphan), 'younger than the grace: kept');

      // Everything reachable reads as before, from the database (not from a cached tree).
      clearTreeCache();
      assert.ok(await t.ctx.blobs.has(fileBlob));
      const current = await api.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`);
      assert.equal(current.status, 200, JSON.stringify(current.body));
      assert.match(JSON.stringify(current.body), /second words/);
      const history = await api.get(`/v1/spaces/${spaceId}/revisions/${v1}/page/${pageId}?format=markdown`);
      assert.equal(history.status, 200, JSON.stringify(history.body));
      assert.match(JSON.stringify(history.body), /first words/);
      const files = await api.get(`/v1/spaces/${spaceId}/revisions/${v1}/files`);
      assert.equal(files.status, 200);
      const crContent = await api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequest.body.id}/content`);
      assert.equal(crContent.status, 200, JSON.stringify(crContent.body));
      assert.equal((await api.get(`/v1/spaces/${spaceId}/revisions/${orphan}`)).status, 404, 'the abandoned revision is gone');

      const again = await collectGarbage(t.ctx);
      assert.deepEqual(again.removed, { revisions: 0, objects: 0, blobs: 0, blobBytes: 0 }, 'a second run finds nothing');
    });

    it('never loses an old object or blob that a write starts using during the sweep', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      // Old and unreachable when the collector marks: a body and a blob written by an abandoned write.
      const body = 'Recycled words, reused by a later write.\n';
      const bytes = Buffer.from('recycled bytes');
      const oldBody = await putObject(t.ctx, 'body', body);
      const oldBlob = (await storeBlob(t.ctx, bytes)).blob;
      t.clock.advance(2 * HOUR);
      let pageId = '';
      let revision = '';
      const report = await collectGarbage(t.ctx, {
        afterMark: async () => {
          // The write lands between the mark (which found both unreachable) and the sweep.
          revision = await editContent(t.ctx, spaceId, async (writer) => {
            pageId = writer.addPage({ type: 'document', title: 'Recycled', markdown: body });
            await addFile(t.ctx, writer, { name: 'recycled.txt', contentType: 'text/plain', bytes });
          });
        },
      });
      assert.ok(report.reachable.objects > 0);
      assert.ok(await hasObject(oldBody), 'the reused body survived the sweep');
      assert.ok(await hasBlobRow(oldBlob));
      assert.ok(await t.ctx.blobs.has(oldBlob), 'the reused bytes survived the sweep');
      clearTreeCache();
      const read = await world.admin.api.get(`/v1/spaces/${spaceId}/revisions/${revision}/page/${pageId}?format=markdown`);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.match(JSON.stringify(read.body), /Recycled words/);
    });

    it('on PostgreSQL, a sweep that meets a write still open on a reused object waits for it and keeps the object', { skip: dialect !== 'postgres' }, async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const body = 'Reused inside a transaction still open during the sweep.\n';
      const oldBody = await putObject(t.ctx, 'body', body);
      t.clock.advance(2 * HOUR);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let write!: Promise<{ revision: string; pageId: string }>;
      await collectGarbage(t.ctx, {
        afterMark: async () => {
          let touched!: () => void;
          const reused = new Promise<void>((resolve) => (touched = resolve));
          write = t.ctx.db.transaction().execute(async (trx) => {
            let pageId = '';
            const revision = await editContent({ ...t.ctx, db: trx }, spaceId, (writer) => {
              pageId = writer.addPage({ type: 'document', title: 'Open', markdown: body });
            });
            touched();
            await gate; // committed only after the sweep has had the chance to reach the object
            return { revision, pageId };
          });
          await reused;
          // Either order is a valid race: the sweep waits on the row, or the write commits first.
          setTimeout(release, 200);
        },
      });
      const { revision, pageId } = await write;
      assert.ok(await hasObject(oldBody), 'the object the open write reused is still stored');
      clearTreeCache();
      const read = await world.admin.api.get(`/v1/spaces/${spaceId}/revisions/${revision}/page/${pageId}?format=markdown`);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.match(JSON.stringify(read.body), /still open during the sweep/);
    });

    it('races writers that reuse old content against concurrent collections without losing what they reference', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const bodies = Array.from({ length: 6 }, (_, i) => `Old body number ${i}.\n`);
      const blobs = bodies.map((text) => Buffer.from(`bytes of ${text}`));
      for (const [i, text] of bodies.entries()) {
        await putObject(t.ctx, 'body', text);
        await storeBlob(t.ctx, blobs[i]);
      }
      t.clock.advance(2 * HOUR);
      const written: Array<{ revision: string; pageId: string; text: string }> = [];
      const writes = (async () => {
        for (const [i, text] of bodies.entries()) {
          let pageId = '';
          const revision = await editContent(t.ctx, spaceId, async (writer) => {
            pageId = writer.addPage({ type: 'document', title: `Page ${i}`, markdown: text });
            await addFile(t.ctx, writer, { name: `f${i}.txt`, contentType: 'text/plain', bytes: blobs[i] });
          });
          written.push({ revision, pageId, text });
        }
      })();
      const collections = (async () => {
        for (let i = 0; i < 4; i++) await collectGarbage(t.ctx);
      })();
      await Promise.all([writes, collections]);
      await collectGarbage(t.ctx);
      clearTreeCache();
      const head = await currentRevision(t.ctx, spaceId);
      const tree = await (await import('../../src/content/tree.ts')).loadTree(t.ctx, (await t.ctx.db.selectFrom('revisions').select('root').where('id', '=', head).executeTakeFirstOrThrow()).root);
      for (const file of tree.files.values()) assert.ok(await t.ctx.blobs.has(file.blob), `file ${file.name} keeps its bytes`);
      for (const { revision, pageId, text } of written) {
        const read = await world.admin.api.get(`/v1/spaces/${spaceId}/revisions/${revision}/page/${pageId}?format=markdown`);
        assert.equal(read.status, 200, JSON.stringify(read.body));
        assert.ok(JSON.stringify(read.body).includes(text.trim()), `revision ${revision} still reads its body`);
      }
    });

    it('runs as a scheduled job that collects and reschedules itself, once per interval however often a server starts', async () => {
      await t.ctx.db.deleteFrom('jobs').where('kind', '=', collectGarbageJob.kind).execute();
      await scheduleGarbageCollection(t.app.services);
      await scheduleGarbageCollection(t.app.services); // a second start leaves the pending run where it is
      const pending = await t.ctx.db.selectFrom('jobs').select(['run_at', 'status']).where('kind', '=', collectGarbageJob.kind).execute();
      assert.deepEqual(pending.map((job) => job.status), ['pending']);
      assert.equal(pending[0].run_at, new Date(t.clock.now().getTime() + 6 * HOUR).toISOString());
      const lonely = await putObject(t.ctx, 'body', 'Nobody holds this body, collected by the job.\n');
      t.clock.advance(6 * HOUR + 1000);
      const round = await runDueJobs(t.app.services, { workerId: 'gc-test', limit: 50 });
      assert.ok(round.rescheduled >= 1, JSON.stringify(round));
      assert.equal(await hasObject(lonely), false);
      const next = await t.ctx.db.selectFrom('jobs').select(['run_at', 'status']).where('kind', '=', collectGarbageJob.kind).execute();
      assert.deepEqual(next, [{ status: 'pending', run_at: new Date(t.clock.now().getTime() + 6 * HOUR).toISOString() }]);
    });
  });
}

describe('bin/quire gc [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-gc-'));
  const env = { ...process.env, QUIRE_LOG_LEVEL: 'warn', QUIRE_DATA_DIR: dir, QUIRE_DATABASE_URL: '' };
  const quire = (args: string[]) => {
    const run = spawnSync(QUIRE, args, { env, encoding: 'utf8', timeout: 60_000 });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('counts with --dry-run and collects, printing one JSON object with --json', () => {
    assert.equal(quire(['init', '--org', 'Acme', '--email', 'ada@acme.test']).code, 0);
    const dry = quire(['gc', '--dry-run', '--json']);
    assert.equal(dry.code, 0, dry.stderr);
    const report = JSON.parse(dry.stdout);
    assert.equal(report.dryRun, true);
    assert.deepEqual(report.removed, { revisions: 0, objects: 0, blobs: 0, blobBytes: 0 }, 'fresh content is within the grace');
    const run = quire(['gc']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Removed 0 revision/);
    assert.equal(quire(['gc', '--bogus']).code, 2);
  });
});

describe('garbage collection with blobs in an S3-compatible bucket', () => {
  let s3: LocalS3;
  let t: TestApp;
  before(async () => {
    s3 = await startLocalS3();
    t = await createTestApp('sqlite', { QUIRE_BLOB_URL: s3.blobUrl('gc') });
  });
  after(async () => {
    await t.close();
    await s3.close();
  });

  it('removes the bytes of an unreachable blob from the bucket and keeps those a revision holds', async () => {
    const world = await createWorld(t.ctx, t.app, t.clock);
    const spaceId = await createSpace(t.ctx, world.organizationId);
    let kept = '';
    await editContent(t.ctx, spaceId, async (writer) => {
      const fileId = await addFile(t.ctx, writer, { name: 'kept.bin', contentType: 'application/octet-stream', bytes: 'kept in the bucket' });
      kept = writer.fileList().find((file) => file.id === fileId)!.blob;
    });
    const lost = (await storeBlob(t.ctx, Buffer.from('nobody holds these bytes'))).blob;
    assert.ok(await t.ctx.blobs.has(lost));
    t.clock.advance(2 * HOUR);
    const report = await collectGarbage(t.ctx);
    assert.equal(report.removed.blobs, 1);
    assert.equal(await t.ctx.blobs.has(lost), false);
    assert.ok(await t.ctx.blobs.has(kept));
  });
});
