import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { dialects, type TestApp } from '../helpers/app.ts';
import type { World } from '../helpers/factories.ts';
import * as Y from 'yjs';
import { until } from './clients.ts';
import { liveNodeSuite } from './node-suite.ts';
import { modelVersion } from '../../src/live/model.ts';

/**
 * Live co-editing in one process, on both databases: Node clients (the Hocuspocus provider on a Yjs
 * document) on /v1/live. Writers converge and the change request reads what they typed; a reader follows
 * and cannot write; an API edit reaches the clients; access is checked on connection and again later;
 * limits close with their reason.
 */
for (const dialect of dialects) {
  describe(`live co-editing [${dialect}]`, () => {
    const suite = liveNodeSuite(dialect, { QUIRE_LIVE_IDLE_MS: '150', QUIRE_LIVE_MAX_WAIT_MS: '1000', QUIRE_LIVE_RECHECK_SECONDS: '1', QUIRE_LIVE_MAX_UPDATE_BYTES: '200000' });
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let pageId: string;
    let url: string;
    before(() => ({ t, world, spaceId, pageId, url } = suite));
    const connect = suite.connect;
    const markdown = async (cr: string) => (await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}?format=markdown`)).body.markdown as string;

    async function newChangeRequest(): Promise<{ id: string; name: string }> {
      const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Live' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return { id: created.body.id, name: `${world.organizationId}/${spaceId}/${created.body.id}/${pageId}` };
    }

    it('two writers type into one paragraph at once and converge; the change request then reads their text', async () => {
      const cr = await newChangeRequest();
      const a = connect(world.members.edit.token, cr.name);
      const b = connect(world.admin.token, cr.name);
      await until('both clients hold the page', () => a.paragraphs()[0] === 'First paragraph.' && b.paragraphs()[0] === 'First paragraph.');
      for (let i = 0; i < 20; i++) {
        a.type(0, 0, 'a');
        b.type(0, b.paragraphs()[0].length, 'b');
      }
      await until('the clients converge', () => a.paragraphs().join('\n') === b.paragraphs().join('\n') && a.paragraphs()[0].length === 'First paragraph.'.length + 40);
      const text = a.paragraphs()[0];
      assert.equal(text, `${'a'.repeat(20)}First paragraph.${'b'.repeat(20)}`);
      await until('the change request has the text', async () => (await markdown(cr.id)) === `${text}\n\nSecond paragraph.\n`);
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.match(metrics.body, /^quire_live_connections [1-9]/m);
      assert.match(metrics.body, /^quire_live_documents [1-9]/m);
      assert.match(metrics.body, /^quire_live_updates_total [1-9]/m);
    });

    it('a reader follows the text live and cannot write: the server refuses and the page keeps its text', async () => {
      const cr = await newChangeRequest();
      const writer = connect(world.members.edit.token, cr.name);
      const reader = connect(world.members.read.token, cr.name);
      await until('the reader holds the page', () => reader.paragraphs()[1] === 'Second paragraph.');
      writer.type(1, 0, 'Edited. ');
      await until('the reader sees the edit', () => reader.paragraphs()[1] === 'Edited. Second paragraph.');
      reader.type(0, 0, 'READER ');
      await until('the writer had time to receive anything', async () => (await markdown(cr.id)).startsWith('First paragraph.\n\nEdited. '));
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(writer.paragraphs()[0], 'First paragraph.');
      assert.equal(await markdown(cr.id), 'First paragraph.\n\nEdited. Second paragraph.\n');
    });

    it('an API edit of the page while people are in it is merged into the live document', async () => {
      const cr = await newChangeRequest();
      const a = connect(world.members.edit.token, cr.name);
      await until('the client holds the page', () => a.paragraphs()[0] === 'First paragraph.');
      a.type(0, 0, 'Live ');
      await until('the live edit is written', async () => (await markdown(cr.id)) === 'Live First paragraph.\n\nSecond paragraph.\n');
      const head = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`);
      const page = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`);
      const document = structuredClone(page.body.document);
      document.nodes[1].nodes[0].leaves[0].text = 'Second paragraph, edited through the API.';
      const patched = await world.admin.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { document, baseRevision: head.body.revision });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      // Meanwhile the live client keeps typing in the other paragraph: both edits survive.
      a.type(0, 0, 'Still ');
      await until('the API edit reaches the client', () => a.paragraphs()[1] === 'Second paragraph, edited through the API.');
      await until('the page holds both', async () => (await markdown(cr.id)) === 'Still Live First paragraph.\n\nSecond paragraph, edited through the API.\n');
    });

    it('a page deleted while someone is in it: the editor is told why, and the document leaves memory', async () => {
      // A store that failed once kept its document in memory for good (with a timer that held the process open).
      const documents = async () => Number(/^quire_live_documents (\d+)/m.exec((await t.app.inject({ method: 'GET', url: '/metrics' })).body)?.[1]);
      const cr = await newChangeRequest();
      const before = await documents();
      const a = connect(world.members.edit.token, cr.name);
      await until('the client holds the page', () => a.paragraphs()[0] === 'First paragraph.');
      assert.equal(await documents(), before + 1);
      a.type(0, 0, 'Gone ');
      await until('the live edit is written', async () => (await markdown(cr.id)).startsWith('Gone '));
      const removed = await world.members.edit.api.delete(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`);
      assert.equal(removed.status, 204, JSON.stringify(removed.body));
      a.type(0, 0, 'Late ');
      await until('the client is told the page is gone', () => [...a.closes, ...a.denied].some((reason) => reason === 'this page was deleted from the change request.'));
      await until('the document leaves memory', async () => (await documents()) === before);
      a.destroy();
    });

    it('a change request archived while someone is in it: the editor is told, and nothing more is written to it', async () => {
      const cr = await newChangeRequest();
      const a = connect(world.members.edit.token, cr.name);
      await until('the client holds the page', () => a.paragraphs()[0] === 'First paragraph.');
      a.type(0, 0, 'Kept ');
      await until('the live edit is written', async () => (await markdown(cr.id)).startsWith('Kept '));
      const archived = await world.members.edit.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { status: 'archived' });
      assert.equal(archived.status, 200, JSON.stringify(archived.body));
      a.type(0, 0, 'Late ');
      // Two ways, depending on which comes first: the write of the late edit is refused (the reason names the
      // archived change request), or the access re-check finds the editor can no longer write and closes the
      // connection to reconnect read-only.
      await until('the client is told', () => [...a.closes, ...a.denied].some((reason) => /archived|permissions changed/i.test(reason)));
      // What was written before it was archived is kept, and the late edit never reaches the change request.
      const text = await markdown(cr.id);
      assert.ok(text.startsWith('Kept First paragraph.'), text);
      assert.ok(!text.includes('Late'), text);
      a.destroy();
    });

    it('refuses people who cannot read the space, and names that are not documents', async () => {
      const cr = await newChangeRequest();
      const outsider = connect(world.outsider.token, cr.name);
      await until('the outsider is refused', () => outsider.denied.length > 0);
      const nobody = connect('not-a-token', cr.name);
      await until('a bad token is refused', () => nobody.denied.length > 0);
      const bad = connect(world.admin.token, `${world.organizationId}/${spaceId}`);
      await until('a malformed name is refused', () => bad.denied.length > 0);
      assert.match(bad.denied[0], /organization\/space\/changeRequest\/page/);
      // The change request's presence channel is the change request's: refused to whoever may not read it.
      const peeker = connect(world.outsider.token, `${world.organizationId}/${spaceId}/${cr.id}`);
      await until('the outsider is refused the presence channel', () => peeker.denied.length > 0);
    });

    it('refuses a browser of another document model version (a rolling upgrade) before it gets the page, and admits one of this version', async () => {
      const cr = await newChangeRequest();
      // A tab opened before an upgrade: its editor's schema differs. Let in, it would drop what it cannot model.
      const stale = connect(world.members.edit.token, cr.name, `${url}?model=00000000`);
      await until('the stale browser is refused', () => stale.denied.length > 0);
      assert.match(stale.denied[0], /^Quire was updated since this page was opened: reload the page/);
      assert.deepEqual(stale.paragraphs(), [], 'the refused browser never receives the page');
      const current = connect(world.members.edit.token, cr.name, `${url}?model=${await modelVersion()}`);
      await until('a browser of this version holds the page', () => current.paragraphs()[0] === 'First paragraph.');
      current.type(0, 0, 'Current ');
      await until('its edit is written', async () => (await markdown(cr.id)) === 'Current First paragraph.\n\nSecond paragraph.\n');
    });

    it('carries who is on which page on the change request\'s presence channel, which nobody can write to', async () => {
      const cr = await newChangeRequest();
      const channel = `${world.organizationId}/${spaceId}/${cr.id}`;
      const editor = connect(world.members.edit.token, channel);
      const reader = connect(world.members.read.token, channel);
      await until('both are connected', () => editor.provider.isAuthenticated && reader.provider.isAuthenticated);
      assert.equal(editor.provider.authorizedScope, 'readonly');
      editor.provider.setAwarenessField('pageId', pageId);
      await until('the reader sees the editor on the page', () => [...reader.provider.awareness!.getStates().values()].some((state) => state.pageId === pageId));
      // Content sent to the channel is not applied: another client never receives it.
      editor.doc.getXmlFragment('default').insert(0, [new Y.XmlElement('paragraph')]);
      // Sent after the update on the same socket: once the reader sees it, the server has had the update.
      editor.provider.setAwarenessField('after', true);
      await until('the server has had the update', () => [...reader.provider.awareness!.getStates().values()].some((state) => state.after === true));
      const late = connect(world.admin.token, channel);
      await until('a third client is synced', () => late.provider.isSynced);
      assert.equal(late.doc.getXmlFragment('default').length, 0);
      assert.equal(reader.doc.getXmlFragment('default').length, 0);
    });

    it('closes a connection whose token is revoked, and one that sends an update over the limit, with the reason', async () => {
      const cr = await newChangeRequest();
      const created = await world.members.edit.api.post('/v1/user/tokens', { name: 'live test' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const client = connect(created.body.token, cr.name);
      await until('the client holds the page', () => client.paragraphs()[0] === 'First paragraph.');
      const revoked = await world.members.edit.api.delete(`/v1/user/tokens/${created.body.id}`);
      assert.equal(revoked.status, 205, JSON.stringify(revoked.body));
      await until('the revoked client is closed', () => client.closes.length > 0);

      const big = connect(world.members.edit.token, cr.name);
      await until('the client holds the page', () => big.paragraphs()[0] === 'First paragraph.');
      big.type(0, 0, 'x'.repeat(300_000));
      await until('the oversized update closes the connection', () => big.closes.some((reason) => /update too large/.test(reason)));
      assert.equal(await markdown(cr.id), 'First paragraph.\n\nSecond paragraph.\n');

      const hasty = connect(world.members.edit.token, cr.name);
      await until('the client holds the page', () => hasty.paragraphs()[0] === 'First paragraph.');
      for (let i = 0; i < 400; i++) hasty.type(0, 0, 'z');
      await until('the flood closes the connection', () => hasty.closes.some((reason) => /too many updates/.test(reason)));
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.match(metrics.body, /^quire_live_refused_total\{reason="rate"\} [1-9]/m);
      assert.match(metrics.body, /^quire_live_refused_total\{reason="update-size"\} [1-9]/m);
    });
  });
}
