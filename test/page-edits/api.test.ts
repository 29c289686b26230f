import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, currentRevision, editContent } from '../helpers/content-factory.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';

interface Page {
  id: string;
  title: string;
  path?: string;
  pages?: Page[];
}

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
const doc = (...texts: string[]) => ({ object: 'document', data: {}, nodes: texts.map(paragraph) });

/**
 * Quire's page-editing operations over the API: create, change and delete pages of a change request and,
 * live, of a space; who may; what a locked space, an archived change request and a bad body answer; and
 * the store's rules (a new immutable revision per write, the head moved, the audit entry, the event).
 */
for (const dialect of dialects) {
  describe(`page edits [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    const ids: Record<string, string> = {};
    const admin = () => world.admin.api;

    async function newChangeRequest(space = spaceId): Promise<string> {
      const created = await world.members.edit.api.post(`/v1/spaces/${space}/change-requests`, { subject: 'Edits' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return `/v1/spaces/${space}/change-requests/${created.body.id}`;
    }

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      await editContent(t.ctx, spaceId, (writer) => {
        ids.intro = writer.addPage({ type: 'document', title: 'Intro', markdown: '# Welcome\n\nFirst paragraph.\n\nSecond paragraph.\n' });
        ids.install = writer.addPage({ type: 'document', title: 'Install', markdown: 'Run it.\n' });
      });
    });
    after(() => t.close());

    it('sets a page\'s icon (GitBook\'s RevisionPage icon), which replaces its emoji, and refuses a bad one', async () => {
      const cr = await newChangeRequest();
      const created = await world.members.edit.api.post(`${cr}/content/pages`, { title: 'Settings', icon: 'gear' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.icon, 'gear');
      assert.equal(created.body.emoji, undefined);
      const id = created.body.id as string;
      assertError(await world.members.edit.api.post(`${cr}/content/pages`, { title: 'Both', icon: 'gear', emoji: '1f680' }), 400);
      assertError(await world.members.edit.api.patch(`${cr}/content/page/${id}`, { icon: 'Not An Icon!' }), 400);
      assertError(await world.members.edit.api.patch(`${cr}/content/page/${id}`, { icon: 'book', emoji: '1f680' }), 400);
      // Read-only members may not.
      assertError(await world.members.read.api.patch(`${cr}/content/page/${id}`, { icon: 'book' }), 403);
      const emoji = await world.members.edit.api.patch(`${cr}/content/page/${id}`, { emoji: '1f680' });
      assert.equal(emoji.status, 200, JSON.stringify(emoji.body));
      assert.deepEqual([emoji.body.page.emoji, emoji.body.page.icon], ['1f680', undefined]);
      const icon = await world.members.edit.api.patch(`${cr}/content/page/${id}`, { icon: 'book' });
      assert.deepEqual([icon.body.page.emoji, icon.body.page.icon], [undefined, 'book']);
      const read = await admin().get(`${cr}/content/page/${id}`);
      assert.equal(read.body.icon, 'book');
      const removed = await world.members.edit.api.patch(`${cr}/content/page/${id}`, { icon: null });
      assert.equal(removed.body.page.icon, undefined);
    });

    it('creates, changes, moves and deletes pages of a change request; the space does not move', async () => {
      const cr = await newChangeRequest();
      const spaceBefore = await currentRevision(t.ctx, spaceId);
      const created = await world.members.edit.api.post(`${cr}/content/pages`, { title: 'Guides', document: doc('Start here.') });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.title, 'Guides');
      assert.equal(created.body.type, 'document');
      assert.equal(created.body.path, 'guides');
      assert.equal(created.body.document.nodes[0].type, 'paragraph');
      assert.equal(typeof created.body.revision, 'string');
      const guides = created.body.id as string;
      assert.equal((await admin().get(cr)).body.revision, created.body.revision);
      assert.equal((await admin().get(`${cr}/content/page/${guides}?format=markdown`)).body.markdown, 'Start here.\n');

      const child = await world.members.edit.api.post(`${cr}/content/pages`, { title: 'Deploy', parent: guides, emoji: '1f680' });
      assert.equal(child.status, 201, JSON.stringify(child.body));
      assert.equal(child.body.path, 'guides/deploy');
      const link = await world.members.edit.api.post(`${cr}/content/pages`, { title: 'Status', type: 'link', href: 'https://status.example.com/', position: 0 });
      assert.equal(link.status, 201, JSON.stringify(link.body));
      assert.equal(link.body.href, 'https://status.example.com/');
      const group = await world.members.edit.api.post(`${cr}/content/pages`, { title: 'Reference', type: 'group' });
      assert.equal(group.body.type, 'group');

      const patched = await world.members.edit.api.patch(`${cr}/content/page/${ids.intro}`, {
        title: 'Introduction',
        description: 'Where to start',
        emoji: '1f44b',
        layout: { outline: false },
        document: doc('Only this.'),
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.page.title, 'Introduction');
      assert.equal(patched.body.page.description, 'Where to start');
      assert.equal(patched.body.page.emoji, '1f44b');
      assert.equal(patched.body.page.layout.outline, false);
      assert.equal(patched.body.page.layout.tableOfContents, true);
      assert.equal(patched.body.page.document.nodes.length, 1);
      assert.equal((await admin().get(cr)).body.revision, patched.body.revision);

      const moved = await world.members.edit.api.patch(`${cr}/content/page/${ids.install}`, { parent: guides, position: 0 });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.page.path, 'guides/install');
      const tree = (await admin().get(`${cr}/content/pages`)).body.pages as Page[];
      assert.deepEqual(tree.map((p) => p.title), ['Status', 'Introduction', 'Guides', 'Reference']);
      assert.deepEqual(tree[2].pages!.map((p) => p.title), ['Install', 'Deploy']);

      // Sending the parent it has already does not move it.
      const stays = await world.members.edit.api.patch(`${cr}/content/page/${ids.install}`, { parent: guides, title: 'Install' });
      assert.equal(stays.status, 200, JSON.stringify(stays.body));
      assert.deepEqual(((await admin().get(`${cr}/content/pages`)).body.pages as Page[])[2].pages!.map((p) => p.title), ['Install', 'Deploy']);
      const beforeRemoval = (await admin().get(cr)).body.revision;
      const removed = await world.members.edit.api.delete(`${cr}/content/page/${guides}`);
      assert.equal(removed.status, 204);
      const after = (await admin().get(`${cr}/content/pages`)).body.pages as Page[];
      assert.deepEqual(after.map((p) => p.title), ['Status', 'Introduction', 'Reference']);
      assert.equal(await currentRevision(t.ctx, spaceId), spaceBefore, 'the space does not move');
      // Each write is one new revision whose parent is the one before.
      const head = await t.ctx.db.selectFrom('revisions').select(['parents', 'type']).where('id', '=', (await admin().get(cr)).body.revision).executeTakeFirstOrThrow();
      assert.equal(head.type, 'edits');
      assert.deepEqual(JSON.parse(head.parents), [beforeRemoval]);
    });

    it('writes the space directly (live edits): the head moves, the event is told, the audit trail records it', async () => {
      const before = await currentRevision(t.ctx, spaceId);
      const patched = await world.members.edit.api.patch(`/v1/spaces/${spaceId}/content/page/${ids.install}`, { document: doc('Run the installer.') });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const now = await currentRevision(t.ctx, spaceId);
      assert.equal(now, patched.body.revision);
      assert.notEqual(now, before);
      const revision = await t.ctx.db.selectFrom('revisions').selectAll().where('id', '=', now).executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(revision.parents), [before]);
      assert.equal(revision.created_by, world.members.edit.id);
      // space-content-changed: search indexing is enqueued in the same transaction.
      const jobs = await t.ctx.db.selectFrom('jobs').select(['kind']).execute();
      assert.ok(jobs.some((job) => /index/.test(job.kind)), `jobs: ${jobs.map((j) => j.kind).join(', ')}`);
      const audit = await admin().get(`/v1/orgs/${world.organizationId}/audit-log`);
      assert.equal(audit.status, 200, JSON.stringify(audit.body));
      assert.ok(JSON.stringify(audit.body).includes('updatePageInSpace'), JSON.stringify(audit.body).slice(0, 2000));
      // The page reads back as written.
      assert.equal((await admin().get(`/v1/spaces/${spaceId}/content/page/${ids.install}?format=markdown`)).body.markdown, 'Run the installer.\n');
      // A save of the document as loaded writes nothing.
      const loaded = (await admin().get(`/v1/spaces/${spaceId}/content/page/${ids.install}`)).body;
      const same = await world.members.edit.api.patch(`/v1/spaces/${spaceId}/content/page/${ids.install}`, { document: loaded.document, baseRevision: now });
      assert.equal(same.status, 200);
      assert.equal(same.body.revision, now);
      assert.equal(await currentRevision(t.ctx, spaceId), now);
    });

    it('lets admin, create, review and edit write; comment and read get 403; guests and outsiders 404', async () => {
      const cr = await newChangeRequest();
      const expected: Record<string, number> = { admin: 201, create: 201, review: 201, edit: 201, comment: 403, read: 403, guest: 404, outsider: 404 };
      for (const [role, user] of cast(world)) {
        const created = await user.api.post(`${cr}/content/pages`, { title: `By ${role}` });
        assert.equal(created.status, expected[role], `${role} creating in a change request: ${JSON.stringify(created.body)}`);
        const live = await user.api.post(`/v1/spaces/${spaceId}/content/pages`, { title: `Live by ${role}` });
        assert.equal(live.status, expected[role], `${role} creating live: ${JSON.stringify(live.body)}`);
        const patchStatus = expected[role] === 201 ? 200 : expected[role];
        const patched = await user.api.patch(`/v1/spaces/${spaceId}/content/page/${ids.install}`, { title: `Install (${role})` });
        assert.equal(patched.status, patchStatus, `${role} patching: ${JSON.stringify(patched.body)}`);
        const inCr = await user.api.patch(`${cr}/content/page/${ids.install}`, { title: `Install in CR (${role})` });
        assert.equal(inCr.status, patchStatus, `${role} patching in a change request: ${JSON.stringify(inCr.body)}`);
        if (expected[role] !== 201) {
          assert.equal((await user.api.delete(`/v1/spaces/${spaceId}/content/page/${ids.install}`)).status, expected[role], `${role} deleting`);
          assert.equal((await user.api.delete(`${cr}/content/page/${ids.install}`)).status, expected[role], `${role} deleting in a change request`);
        } else {
          const scratch = await user.api.post(`${cr}/content/pages`, { title: 'Scratch' });
          assert.equal((await user.api.delete(`${cr}/content/page/${scratch.body.id}`)).status, 204, `${role} deleting`);
          const live2 = await user.api.post(`/v1/spaces/${spaceId}/content/pages`, { title: 'Scratch' });
          assert.equal((await user.api.delete(`/v1/spaces/${spaceId}/content/page/${live2.body.id}`)).status, 204, `${role} deleting live`);
        }
      }
      assertError(await world.members.read.api.patch(`/v1/spaces/${spaceId}/content/page/${ids.install}`, { title: 'x' }), 403, 'edit level');
    });

    it('refuses a locked space (423), an archived change request (409) and a missing page (404)', async () => {
      const locked = await createSpace(t.ctx, world.organizationId, { editMode: 'locked' });
      assertError(await admin().post(`/v1/spaces/${locked}/content/pages`, { title: 'No' }), 423, 'editMode');
      const cr = await newChangeRequest();
      assert.equal((await world.members.edit.api.patch(cr, { status: 'archived' })).status, 200);
      assertError(await admin().post(`${cr}/content/pages`, { title: 'No' }), 409, 'archived');
      assertError(await admin().patch(`/v1/spaces/${spaceId}/content/page/nope`, { title: 'x' }), 404, 'nope');
      assertError(await admin().delete(`/v1/spaces/${spaceId}/content/page/nope`), 404);
    });

    it('refuses bad bodies with a 400 naming the member', async () => {
      const cr = await newChangeRequest();
      assertError(await admin().post(`${cr}/content/pages`, {}), 400, 'title');
      assertError(await admin().post(`${cr}/content/pages`, { title: 'x', colour: 'red' }), 400);
      assertError(await admin().post(`${cr}/content/pages`, { title: 'L', type: 'link' }), 400, 'href');
      assertError(await admin().post(`${cr}/content/pages`, { title: 'G', type: 'group', document: doc('x') }), 400, 'document');
      assertError(await admin().post(`${cr}/content/pages`, { title: 'x', parent: 'nowhere' }), 400, 'parent');
      assertError(await admin().patch(`${cr}/content/page/${ids.intro}`, { slug: 'Not A Slug' }), 400, 'slug');
      assertError(await admin().patch(`${cr}/content/page/${ids.intro}`, { title: '   ' }), 400, 'title');
      assertError(await admin().patch(`${cr}/content/page/${ids.intro}`, { document: { object: 'document', nodes: [{ object: 'block', type: 'no-such-block' }] } }), 400, 'document');
      assertError(await admin().patch(`${cr}/content/page/${ids.intro}`, { document: { object: 'document', nodes: [{}] } }), 400, 'document');
      assertError(await admin().patch(`${cr}/content/page/${ids.intro}`, { baseRevision: 'not-a-revision', title: 'x' }), 400, 'baseRevision');
      assertError(await admin().patch(`${cr}/content/page/${ids.intro}`, { parent: ids.intro }), 400, 'inside itself');
    });

    it('documents the six operations in /openapi.json', async () => {
      const doc = (await admin().get('/openapi.json')).body;
      const cr = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content';
      const live = '/v1/spaces/{spaceId}/content';
      const operations = [
        doc.paths[`${cr}/pages`]?.post?.operationId,
        doc.paths[`${cr}/page/{pageId}`]?.patch?.operationId,
        doc.paths[`${cr}/page/{pageId}`]?.delete?.operationId,
        doc.paths[`${live}/pages`]?.post?.operationId,
        doc.paths[`${live}/page/{pageId}`]?.patch?.operationId,
        doc.paths[`${live}/page/{pageId}`]?.delete?.operationId,
      ];
      assert.deepEqual(operations, ['createPageInChangeRequest', 'updatePageInChangeRequest', 'deletePageInChangeRequest', 'createPageInSpace', 'updatePageInSpace', 'deletePageInSpace']);
      assert.ok(doc.paths[`${cr}/page/{pageId}`].patch.requestBody.content['application/json'].schema.properties.baseRevision);
    });

    it('refuses a page over the limits, naming the limit, and writes nothing', async () => {
      const cr = await newChangeRequest();
      const head = (await admin().get(cr)).body.revision;
      let deep: Record<string, unknown> = paragraph('deep');
      // Deeper than a page may nest (maxTreeDepth, 200), yet within the 512 levels any JSON body may nest.
      for (let i = 0; i < 220; i++) deep = { object: 'block', type: 'blockquote', nodes: [deep] };
      assertError(await admin().patch(`${cr}/content/page/${ids.intro}`, { document: { object: 'document', nodes: [deep] } }), 400, 'maxTreeDepth');
      const long = doc(...Array.from({ length: 60 }, () => 'x'.repeat(10_000)));
      assertError(await admin().patch(`${cr}/content/page/${ids.intro}`, { document: long }), 413, '500,000');
      assert.equal((await admin().get(cr)).body.revision, head);
    });
  });
}
