import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dialects } from '../helpers/app.ts';
import { until } from './clients.ts';
import { liveNodeSuite } from './node-suite.ts';

/**
 * A change request merged while a page of it holds live edits the server has stored but not yet written
 * (it writes a page QUIRE_LIVE_IDLE_MS after the last keystroke; here a minute, so the merge always comes
 * first): the merge writes them first, and the space gets them (src/live/pending.ts).
 */
for (const dialect of dialects) {
  describe(`live edits pending at a merge [${dialect}]`, () => {
    const suite = liveNodeSuite(dialect, { QUIRE_LIVE_IDLE_MS: '60000', QUIRE_LIVE_MAX_WAIT_MS: '120000' });

    it('writes the stored, unwritten edits into the change request before merging it', async () => {
      const { t, world, spaceId, pageId } = suite;
      const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Typed live' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const cr = created.body.id as string;
      const name = `${world.organizationId}/${spaceId}/${cr}/${pageId}`;
      const writer = suite.connect(world.members.edit.token, name);
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
