import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { liveClient, until, type LiveClient } from './clients.ts';

/**
 * A change request merged while a page of it holds live edits the server has stored but not yet written
 * (it writes a page QUIRE_LIVE_IDLE_MS after the last keystroke; here a minute, so the merge always comes
 * first): the merge writes them first, and the space gets them (src/live/pending.ts).
 */
for (const dialect of dialects) {
  describe(`live edits pending at a merge [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let pageId: string;
    let url: string;
    const clients: LiveClient[] = [];

    before(async () => {
      t = await createTestApp(dialect, { QUIRE_LIVE_IDLE_MS: '60000', QUIRE_LIVE_MAX_WAIT_MS: '120000' });
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      await editContent(t.ctx, spaceId, (writer) => {
        pageId = writer.addPage({ type: 'document', title: 'Notes', markdown: 'First paragraph.\n\nSecond paragraph.\n' });
      });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/live`;
    });
    after(async () => {
      for (const client of clients) client.destroy();
      await t.close();
    });

    it('writes the stored, unwritten edits into the change request before merging it', async () => {
      const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Typed live' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const cr = created.body.id as string;
      const name = `${world.organizationId}/${spaceId}/${cr}/${pageId}`;
      const writer = liveClient({ url, name, token: world.members.edit.token });
      clients.push(writer);
      await until('the client holds the page', () => writer.paragraphs()[0] === 'First paragraph.');
      writer.type(0, 0, 'Typed ');
      const stored = async () => (await t.ctx.db.selectFrom('live_updates').select('id').where('document', '=', name).execute()).length;
      await until('the server stored the edit', async () => (await stored()) > 0);
      const markdown = async (path: string) => (await world.admin.api.get(`${path}/content/page/${pageId}?format=markdown`)).body.markdown as string;
      const crPath = `/v1/spaces/${spaceId}/change-requests/${cr}`;
      assert.equal(await markdown(crPath), 'First paragraph.\n\nSecond paragraph.\n', 'not written yet: the merge comes inside the idle time');

      // Someone who may not merge is refused before anything is written for them.
      const refused = await world.members.read.api.post(`${crPath}/merge`);
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.ok((await stored()) > 0, 'a refused merge writes nothing');
      assert.equal(await markdown(crPath), 'First paragraph.\n\nSecond paragraph.\n');

      const merged = await world.admin.api.post(`${crPath}/merge`);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      assert.equal(merged.body.result, 'merge');
      assert.equal(await markdown(`/v1/spaces/${spaceId}`), 'Typed First paragraph.\n\nSecond paragraph.\n');
      assert.equal(await stored(), 0, 'the stored edits were folded into the written state');
    });
  });
}
