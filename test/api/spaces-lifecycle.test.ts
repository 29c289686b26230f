import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { addMember, cast, createWorld, type TestUser, type World, postCollection, postSpace } from '../helpers/factories.ts';
import { enqueue, runDueJobs } from '../../src/jobs/index.ts';
import { purgeSpaceJob } from '../../src/modules/spaces/purge-space-job.ts';
import { assertEditable, SpaceLocked } from '../../src/access/editable.ts';

const DAY = 24 * 60 * 60 * 1000;

for (const dialect of dialects) {
  describe(`space lifecycle [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let orgUrl: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      orgUrl = `/v1/orgs/${world.organizationId}`;
    });
    after(() => t.close());

    const newSpace = (user: TestUser, body: Record<string, unknown> = {}, organizationId = world.organizationId) => postSpace(t.clock, user, organizationId, body);
    const newCollection = (user: TestUser, body: Record<string, unknown> = {}, organizationId = world.organizationId) => postCollection(t.clock, user, organizationId, body);
    const ids = (reply: Reply) => reply.body.items.map((item: { id: string }) => item.id);
    const runJobs = () => runDueJobs(t.ctx, { workerId: 'test-worker', limit: 100 });
    const row = (id: string) => t.ctx.db.selectFrom('spaces').selectAll().where('id', '=', id).executeTakeFirst();
    const purgeJob = (id: string) => t.ctx.db.selectFrom('jobs').selectAll().where('singleton_key', '=', `purge-space:${id}`).executeTakeFirst();
    const assertEmpty = (reply: Reply, status: 204 | 205) => {
      assert.equal(reply.status, status, JSON.stringify(reply.body));
      assert.equal(reply.body, undefined);
    };

    describe('DELETE /v1/spaces/{spaceId} and POST …/restore: the 7-day trash', () => {
      it('moves a space to the trash (205) and enqueues its purge for 7 days later; it leaves lists and reads', async () => {
        const space = await newSpace(world.admin, { title: 'Trash me' });
        assertEmpty(await world.admin.api.delete(`/v1/spaces/${space.id}`), 205);
        const stored = await row(space.id);
        assert.equal(stored?.deleted_at, t.clock.now().toISOString());
        const job = await purgeJob(space.id);
        assert.equal(job?.kind, 'purge-space');
        assert.equal(job?.status, 'pending');
        assert.equal(job?.run_at, new Date(t.clock.now().getTime() + 7 * DAY).toISOString());
        assertError(await world.admin.api.get(`/v1/spaces/${space.id}`), 404, 'No space');
        assert.ok(!ids(await world.admin.api.get(`${orgUrl}/spaces`)).includes(space.id));
        assertEmpty(await world.admin.api.delete(`/v1/spaces/${space.id}`), 204);
        assertEmpty(await world.admin.api.delete('/v1/spaces/nope'), 204);
      });

      it('lets administrators delete; other members get 403; guests and outsiders, who cannot see it, get 204 and nothing changes', async () => {
        const space = await newSpace(world.admin);
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          const reply = await user.api.delete(`/v1/spaces/${space.id}`);
          if (name === 'guest' || name === 'outsider') assertEmpty(reply, 204);
          else assertError(reply, 403, 'Only administrators of this space can delete it');
        }
        assert.equal((await row(space.id))?.deleted_at, null);
        assertEmpty(await world.admin.api.delete(`/v1/spaces/${space.id}`), 205);
      });

      it('restores within the 7 days (6 days later), back in lists, and drops the pending purge', async () => {
        const space = await newSpace(world.admin, { title: 'Come back' });
        await world.admin.api.delete(`/v1/spaces/${space.id}`);
        t.clock.advance(6 * DAY);
        await runJobs();
        assert.ok(await row(space.id), 'not purged before its time');
        const reply = await world.admin.api.post(`/v1/spaces/${space.id}/restore`);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.id, space.id);
        assert.equal(reply.body.deletedAt, undefined);
        assert.equal(reply.body.updatedAt, t.clock.now().toISOString());
        assert.ok(ids(await world.admin.api.get(`${orgUrl}/spaces`)).includes(space.id));
        assert.equal(await purgeJob(space.id), undefined);
        assertError(await world.admin.api.post(`/v1/spaces/${space.id}/restore`), 409, 'not in the trash');
        t.clock.advance(2 * DAY);
        await runJobs();
        assert.equal((await world.admin.api.get(`/v1/spaces/${space.id}`)).status, 200);
      });

      it('after 7 days answers 410 until the purge runs, then the space is gone for good and restore answers 404 saying why', async () => {
        const space = await newSpace(world.admin, { title: 'Too late' });
        await world.admin.api.delete(`/v1/spaces/${space.id}`);
        t.clock.advance(7 * DAY);
        assertError(await world.admin.api.post(`/v1/spaces/${space.id}/restore`), 410, 'can be restored for 7 days, and that period ended');
        const report = await runJobs();
        assert.ok(report.done >= 1);
        assert.equal(await row(space.id), undefined);
        assert.equal((await purgeJob(space.id))?.status, undefined, 'the finished job gives its key up');
        const job = await t.ctx.db.selectFrom('jobs').selectAll().where('payload', 'like', `%${space.id}%`).executeTakeFirstOrThrow();
        assert.equal(job.status, 'done');
        assertError(await world.admin.api.post(`/v1/spaces/${space.id}/restore`), 404, 'Deleted spaces can be restored for 7 days; after that they are removed for good');
        assertEmpty(await world.admin.api.delete(`/v1/spaces/${space.id}`), 204);
        const revision = await t.ctx.db.selectFrom('revisions').select('id').where('id', '=', space.revision).executeTakeFirst();
        assert.ok(revision, 'revisions stay (their content may be shared)');
      });

      it('a purge takes the space\'s discussion with it: comments, replies and their reactions', async () => {
        const space = await newSpace(world.admin, { title: 'Discussed' });
        const comment = await world.admin.api.post(`/v1/spaces/${space.id}/comments`, { body: { markdown: 'Looks good.' } });
        assert.equal(comment.status, 200, JSON.stringify(comment.body));
        const reply = await world.admin.api.post(`/v1/spaces/${space.id}/comments/${comment.body.id}/replies`, { body: { markdown: 'Agreed.' } });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal((await world.admin.api.put(`/v1/spaces/${space.id}/comments/${comment.body.id}`, { addedReactions: ['👍'] })).status, 200);
        assert.equal((await world.admin.api.put(`/v1/spaces/${space.id}/comments/${comment.body.id}/replies/${reply.body.id}`, { addedReactions: ['🎉'] })).status, 200);
        const reactions = () => t.ctx.db.selectFrom('comment_reactions').select('subject_id').where('subject_id', 'in', [comment.body.id, reply.body.id]).execute();
        assert.equal((await reactions()).length, 2);
        await world.admin.api.delete(`/v1/spaces/${space.id}`);
        t.clock.advance(7 * DAY);
        await runJobs();
        assert.equal(await row(space.id), undefined);
        assert.deepEqual(await reactions(), [], 'no reaction outlives the comment it was on');
        const comments = await t.ctx.db.selectFrom('comments').select('id').where('space_id', '=', space.id).execute();
        assert.deepEqual(comments, []);
      });

      it('purges a space deleted again after a restore at its new time, and a purge that comes early waits', async () => {
        const space = await newSpace(world.admin);
        await world.admin.api.delete(`/v1/spaces/${space.id}`);
        t.clock.advance(DAY);
        await world.admin.api.post(`/v1/spaces/${space.id}/restore`);
        t.clock.advance(DAY);
        await world.admin.api.delete(`/v1/spaces/${space.id}`);
        const deletedAt = t.clock.now().getTime();
        t.clock.advance(5 * DAY + 1000);
        await runJobs();
        assert.ok(await row(space.id), 'seven days after the first deletion, not the second');
        // A purge that runs before its time (enqueued early, or a clock that moved) puts itself back.
        await enqueue(t.ctx, purgeSpaceJob, { spaceId: space.id }, { runAt: t.clock.now() });
        const early = await runJobs();
        assert.equal(early.rescheduled, 1);
        const job = await purgeJob(space.id);
        assert.equal(job?.status, 'pending');
        assert.equal(job?.attempts, 0);
        assert.equal(job?.run_at, new Date(deletedAt + 7 * DAY).toISOString());
        t.clock.advance(2 * DAY);
        await runJobs();
        assert.equal(await row(space.id), undefined);
      });

      it('restores a space whose collection is in the trash at the root of the organization, as private', async () => {
        const collection = await newCollection(world.admin, { title: 'Doomed' });
        const space = await newSpace(world.admin, { parent: collection.id });
        assert.equal(space.visibility, 'in-collection');
        assertEmpty(await world.admin.api.delete(`/v1/collections/${collection.id}`), 205);
        const restored = await world.admin.api.post(`/v1/spaces/${space.id}/restore`);
        assert.equal(restored.status, 200);
        assert.equal(restored.body.parent, undefined);
        assert.equal(restored.body.visibility, 'private');
        assertError(await world.admin.api.get(`/v1/collections/${collection.id}`), 404);
        t.clock.advance(8 * DAY);
        await runJobs();
        assert.equal((await world.admin.api.get(`/v1/spaces/${space.id}`)).status, 200, 'the restored space outlives the purge of its old collection');
        assert.equal(await t.ctx.db.selectFrom('collections').select('id').where('id', '=', collection.id).executeTakeFirst(), undefined);
      });

      it('restores for administrators only: members get 403, guests and outsiders 404', async () => {
        const space = await newSpace(world.admin);
        await world.admin.api.delete(`/v1/spaces/${space.id}`);
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          const reply = await user.api.post(`/v1/spaces/${space.id}/restore`);
          if (name === 'guest' || name === 'outsider') assertError(reply, 404, 'restore');
          else assertError(reply, 403, 'Only administrators');
        }
        assert.equal((await world.admin.api.post(`/v1/spaces/${space.id}/restore`)).status, 200);
      });
    });

    describe('POST /v1/spaces/{spaceId}/duplicate', () => {
      it('makes a copy with the same settings and content, titled as a copy, right after the original', async () => {
        const collection = await newCollection(world.admin, { title: 'Docs' });
        const original = await newSpace(world.admin, { title: 'Guide', emoji: '📘', parent: collection.id, visibility: 'unlisted' });
        const next = await newSpace(world.admin, { title: 'Next', parent: collection.id });
        await world.admin.api.patch(`/v1/spaces/${original.id}`, { defaultLevel: 'comment', language: 'de', editMode: 'locked' });
        t.clock.advance(1000);
        const reply = await world.members.create.api.post(`/v1/spaces/${original.id}/duplicate`);
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        const copy = reply.body;
        assert.equal(reply.headers.location, `http://quire.test/v1/spaces/${copy.id}`);
        assert.notEqual(copy.id, original.id);
        assert.equal(copy.title, 'Guide (copy)');
        for (const key of ['emoji', 'visibility', 'parent', 'organization', 'language', 'defaultLevel', 'editMode'] as const) {
          assert.equal(copy[key], (await world.admin.api.get(`/v1/spaces/${original.id}`)).body[key], key);
        }
        assert.equal(copy.createdAt, t.clock.now().toISOString());
        assert.notEqual(copy.revision, original.revision);
        const revisions = await t.ctx.db.selectFrom('revisions').selectAll().where('id', 'in', [original.revision, copy.revision]).execute();
        const [a, b] = [revisions.find((r) => r.id === original.revision)!, revisions.find((r) => r.id === copy.revision)!];
        assert.equal(b.root, a.root, 'the same content, not a copy of it');
        assert.deepEqual(JSON.parse(b.parents), [a.id]);
        assert.equal(b.space_id, copy.id);
        assert.deepEqual(ids(await world.admin.api.get(`/v1/collections/${collection.id}/spaces`)), [original.id, copy.id, next.id]);
      });

      it('cuts a long title so that the copy still fits in 50 characters', async () => {
        const original = await newSpace(world.admin, { title: 'A'.repeat(50) });
        const copy = (await world.admin.api.post(`/v1/spaces/${original.id}/duplicate`)).body;
        assert.equal(copy.title, `${'A'.repeat(43)} (copy)`);
        assert.equal(copy.title.length, 50);
      });

      it('needs the create role (and the create level in the collection); others get 403, those who cannot see it 404', async () => {
        const space = await newSpace(world.admin, { title: 'Source' });
        for (const [name, user] of cast(world)) {
          const reply = await user.api.post(`/v1/spaces/${space.id}/duplicate`);
          if (name === 'admin' || name === 'create') assert.equal(reply.status, 201, name);
          else if (name === 'guest' || name === 'outsider') assertError(reply, 404, 'No space');
          else assertError(reply, 403, 'create role');
        }
        const open = await newSpace(world.admin, { visibility: 'public' });
        assertError(await world.outsider.api.post(`/v1/spaces/${open.id}/duplicate`), 403, 'create role');
        const readOnly = await newCollection(world.admin);
        await world.admin.api.patch(`/v1/collections/${readOnly.id}`, { defaultLevel: 'read' });
        const inside = await newSpace(world.admin, { parent: readOnly.id });
        assertError(await world.members.create.api.post(`/v1/spaces/${inside.id}/duplicate`), 403, 'create level in this collection');
        assertError(await world.admin.api.post('/v1/spaces/nope/duplicate'), 404);
      });
    });

    describe('POST /v1/spaces/{spaceId}/move', () => {
      it('moves a space into a collection, among its siblings before or after one of them, and back to the root', async () => {
        const collection = await newCollection(world.admin, { title: 'Target' });
        const a = await newSpace(world.admin, { title: 'A', parent: collection.id });
        const b = await newSpace(world.admin, { title: 'B', parent: collection.id });
        const sub = await newCollection(world.admin, { title: 'Sub', parent: collection.id });
        const mover = await newSpace(world.admin, { title: 'Mover', visibility: 'public' });
        const order = async () => ids(await world.admin.api.get(`/v1/collections/${collection.id}/spaces`));

        t.clock.advance(1000);
        const moved = await world.admin.api.post(`/v1/spaces/${mover.id}/move`, { parent: collection.id });
        assert.equal(moved.status, 200, JSON.stringify(moved.body));
        assert.equal(moved.body.parent, collection.id);
        assert.equal(moved.body.visibility, 'public');
        assert.equal(moved.body.updatedAt, t.clock.now().toISOString());
        assert.deepEqual(await order(), [a.id, b.id, mover.id]);

        assert.equal((await world.admin.api.post(`/v1/spaces/${mover.id}/move`, { position: { before: { type: 'space', space: a.id } } })).status, 200);
        assert.deepEqual(await order(), [mover.id, a.id, b.id]);
        assert.equal((await world.admin.api.post(`/v1/spaces/${mover.id}/move`, { position: { after: { type: 'space', space: a.id } } })).status, 200);
        assert.deepEqual(await order(), [a.id, mover.id, b.id]);
        assert.equal((await world.admin.api.post(`/v1/spaces/${mover.id}/move`, { position: { after: { type: 'collection', collection: sub.id } } })).status, 200);
        assert.deepEqual(await order(), [a.id, b.id, mover.id], 'collections and spaces share one order');
        assert.equal((await world.admin.api.post(`/v1/spaces/${b.id}/move`, { position: { after: { type: 'space', space: a.id }, before: { type: 'collection', collection: sub.id } } })).status, 409);

        await world.admin.api.patch(`/v1/spaces/${mover.id}`, { visibility: 'in-collection' });
        const root = await world.admin.api.post(`/v1/spaces/${mover.id}/move`, { parent: null });
        assert.equal(root.status, 200);
        assert.equal(root.body.parent, undefined);
        assert.equal(root.body.visibility, 'private', '"in-collection" has no meaning at the root');
      });

      it('keeps the order right after many moves into the same gap (positions are renumbered when needed)', async () => {
        const collection = await newCollection(world.admin, { title: 'Crowded' });
        const first = await newSpace(world.admin, { parent: collection.id });
        const others: string[] = [];
        for (let i = 0; i < 60; i++) others.push((await newSpace(world.admin, { parent: collection.id })).id);
        for (const id of others) {
          const reply = await world.admin.api.post(`/v1/spaces/${id}/move`, { position: { after: { type: 'space', space: first.id } } });
          assert.ok(reply.status === 200 || reply.status === 409, JSON.stringify(reply.body));
        }
        const all = await world.admin.api.get(`/v1/collections/${collection.id}/spaces?limit=100`);
        assert.deepEqual(ids(all), [first.id, ...[...others].reverse()]);
      });

      it('refuses a parent or a sibling that is not there (400), an empty body (400), and a move that changes nothing (409)', async () => {
        const collection = await newCollection(world.admin);
        const elsewhere = await newCollection(world.admin);
        const space = await newSpace(world.admin, { parent: collection.id });
        const stranger = await newSpace(world.admin, { parent: elsewhere.id });
        const move = (body: unknown) => world.admin.api.post(`/v1/spaces/${space.id}/move`, body);
        assertError(await move({}), 400, 'must NOT have fewer than 1 properties');
        assertError(await move({ parent: 'nope' }), 400, 'The body member "parent" names collection "nope"');
        assertError(await move({ parent: 7 }), 400, 'parent');
        assertError(await move({ position: { before: { type: 'space', space: stranger.id } } }), 400, `"position.before" names space "${stranger.id}", which is not in collection "${collection.id}"`);
        assertError(await move({ position: { after: { type: 'space', space: space.id } } }), 400, '"position.after" names the space being placed itself');
        assertError(await move({ position: { after: { type: 'folder', folder: 'x' } } }), 400, 'position');
        const a = await newSpace(world.admin, { parent: collection.id });
        const b = await newSpace(world.admin, { parent: collection.id });
        assertError(await move({ position: { after: { type: 'space', space: b.id }, before: { type: 'space', space: a.id } } }), 400, 'two neighbours');
        assertError(await move({ parent: collection.id, position: { before: { type: 'space', space: a.id } } }), 409, 'would change nothing');
        assertError(await world.admin.api.post(`/v1/spaces/${b.id}/move`, { parent: collection.id }), 409, 'would change nothing');
        assertError(await world.admin.api.post('/v1/spaces/nope/move', { parent: null }), 404);
      });

      it('lets administrators move; other members get 403, guests and outsiders 404', async () => {
        const space = await newSpace(world.admin);
        const collection = await newCollection(world.admin);
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          const reply = await user.api.post(`/v1/spaces/${space.id}/move`, { parent: collection.id });
          if (name === 'guest' || name === 'outsider') assertError(reply, 404, 'No space');
          else assertError(reply, 403, 'Only administrators');
        }
        assert.equal((await world.admin.api.post(`/v1/spaces/${space.id}/move`, { parent: collection.id })).status, 200);
      });
    });

    describe('POST /v1/spaces/{spaceId}/transfer', () => {
      it('moves a space to another organization the caller administers, out of its collection, at the end of the root', async () => {
        await addMember(t.ctx, world.otherOrganizationId, world.admin.id, 'admin');
        const collection = await newCollection(world.admin);
        const space = await newSpace(world.admin, { title: 'Travelling', parent: collection.id });
        t.clock.advance(1000);
        const reply = await world.admin.api.post(`/v1/spaces/${space.id}/transfer`, { organization: world.otherOrganizationId });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.organization, world.otherOrganizationId);
        assert.equal(reply.body.parent, undefined);
        assert.equal(reply.body.visibility, 'private');
        assert.equal(reply.body.updatedAt, t.clock.now().toISOString());
        assert.ok(ids(await world.outsider.api.get(`/v1/orgs/${world.otherOrganizationId}/spaces`)).includes(space.id));
        assert.ok(!ids(await world.admin.api.get(`${orgUrl}/spaces`)).includes(space.id));
        assertError(await world.members.read.api.get(`/v1/spaces/${space.id}`), 404, 'No space'); // members of the old organization lose it
        assertError(await world.admin.api.post(`/v1/spaces/${space.id}/transfer`, { organization: world.otherOrganizationId }), 409, 'would change nothing');
        assert.equal((await world.admin.api.post(`/v1/spaces/${space.id}/transfer`, { organization: world.organizationId })).status, 200);
      });

      it('needs the admin level on the space and the admin role in the target organization', async () => {
        const space = await newSpace(world.admin);
        const third = await createWorld(t.ctx, t.app, t.clock);
        await addMember(t.ctx, third.organizationId, world.admin.id, 'create');
        const transfer = (user: TestUser, organization: string) => user.api.post(`/v1/spaces/${space.id}/transfer`, { organization });
        assertError(await transfer(world.admin, third.organizationId), 403, 'Only administrators of the target organization');
        assertError(await transfer(world.admin, 'nope'), 404, 'No organization "nope"');
        assertError(await transfer(world.members.create, world.otherOrganizationId), 403, 'Only administrators of this space');
        assertError(await transfer(world.guest, world.otherOrganizationId), 404, 'No space');
        assertError(await transfer(world.outsider, world.otherOrganizationId), 404, 'No space');
        assertError(await world.admin.api.post(`/v1/spaces/${space.id}/transfer`, {}), 400, '"organization"');
        assert.equal((await world.admin.api.get(`/v1/spaces/${space.id}`)).body.organization, world.organizationId);
      });
    });

    describe('editMode "locked"', () => {
      it('is refused by assertEditable with 423 and a message saying how to unlock; settings can still change', async () => {
        const space = await newSpace(world.admin, { editMode: 'locked' });
        const stored = (await row(space.id))!;
        assert.throws(() => assertEditable(stored), (error: unknown) => {
          assert.ok(error instanceof SpaceLocked);
          assert.equal(error.status, 423);
          assert.match(error.message, /is locked.*"editMode": "live"/);
          return true;
        });
        const unlocked = await world.admin.api.patch(`/v1/spaces/${space.id}`, { editMode: 'live', title: 'Unlocked' });
        assert.equal(unlocked.status, 200);
        assert.doesNotThrow(() => assertEditable({ id: space.id, edit_mode: 'live' }));
      });
    });
  });
}
