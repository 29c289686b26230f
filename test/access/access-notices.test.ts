import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onAccessChanged } from '../../src/db/memo.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/**
 * Which writes are changes of access for the listeners of `onAccessChanged` (the live server re-checks every
 * socket on each): a member's role and a change request's status are; a revision written (a page saved, as
 * the live writer saves every couple of seconds) is not, though it still makes the memo of access forget.
 */
for (const dialect of dialects) {
  describe(`notices of access changes [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let pageId: string;
    let told = 0;
    let stop: () => void;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      await editContent(t.ctx, spaceId, (writer) => {
        pageId = writer.addPage({ type: 'document', title: 'Notes', markdown: 'First paragraph.\n' });
      });
      stop = onAccessChanged(() => told++);
    });
    after(async () => {
      stop();
      await t.close();
    });

    async function changeRequest(): Promise<string> {
      const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id;
    }

    it('a page saved in a change request (a revision written) tells no listener', async () => {
      const cr = await changeRequest();
      const before = told;
      for (const text of ['One.', 'Two.']) {
        const document = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] };
        const saved = await world.members.edit.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}`, { document });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
      }
      const page = await world.members.edit.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}?format=markdown`);
      assert.equal(page.body.markdown, 'Two.\n');
      assert.equal(told, before);
    });

    it('a change request archived tells the listeners (its live documents turn read-only)', async () => {
      const cr = await changeRequest();
      const before = told;
      const archived = await world.members.edit.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr}`, { status: 'archived' });
      assert.equal(archived.status, 200, JSON.stringify(archived.body));
      assert.ok(told > before);
    });

    it('a role changed tells the listeners', async () => {
      const before = told;
      const changed = await world.admin.api.patch(`/v1/orgs/${world.organizationId}/members/${world.members.read.id}`, { role: 'comment' });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.ok(told > before);
    });
  });
}
