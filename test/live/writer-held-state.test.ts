import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as Y from 'yjs';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { random } from '../content/markdown-edits.ts';
import { getChangeRequestPage } from '../../src/modules/change-request-content/service.ts';
import { createContext } from '../../src/context.ts';
import { editorContentOf, FIELD } from '../../src/live/model.ts';
import { parseLiveName, type LiveName } from '../../src/live/names.ts';
import { appendUpdates, compactLive, createLive, loadLive } from '../../src/live/store.ts';
import { initialPage, writeLive } from '../../src/live/writer.ts';

/**
 * The live writer's fast path (decision record 0133): a document whose last write folded only what it had
 * applied does not apply that stored state again. Compared, over random rounds on both databases, with the
 * full path — a writer given a new, empty document each time, which applies everything stored — on two
 * change requests fed the same updates: edits this process applied, edits another process stored (not
 * applied here), another process's compaction, and edits stored while a write runs (between its read of the
 * stored parts and its compaction, the case the fast path must not skip). After every quiet write the two
 * pages' Markdown must be byte-identical and the long-lived document must hold exactly what is stored.
 */
for (const dialect of dialects) {
  describe(`the live writer's held state against the full path [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let pageId: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      const markdown = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} of the page.`).join('\n\n') + '\n';
      await editContent(t.ctx, spaceId, (writer) => {
        pageId = writer.addPage({ type: 'document', title: 'Notes', markdown });
      });
    });
    after(async () => t.close());

    async function newName(): Promise<LiveName> {
      const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Live' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return parseLiveName(`${world.organizationId}/${spaceId}/${created.body.id}/${pageId}`);
    }

    it('writes what the full path writes, round after round', async () => {
      const user = world.members.edit;
      const actor = { userId: user.id, email: user.email };
      const ctx = createContext(t.app.services, actor);
      const fast = await newName();
      const full = await newName();
      // Both live documents start from the same Yjs state, so one client's updates apply to both.
      const initial = await initialPage(ctx, fast);
      await createLive(ctx, fast, initial.state, initial.revision);
      await createLive(ctx, full, initial.state, (await initialPage(ctx, full)).revision);
      const held = new Y.Doc();
      Y.applyUpdate(held, initial.state);
      const client = new Y.Doc();
      Y.applyUpdate(client, initial.state);
      const log = { warn: () => {} };
      const next = random(dialect.length * 7919 + 26);

      /** One random edit of the client's page: text typed, removed, or a paragraph added or deleted. */
      const typed = (): Uint8Array => {
        const before = Y.encodeStateVector(client);
        const fragment = client.getXmlFragment(FIELD);
        const at = Math.floor(next() * fragment.length);
        const choice = next();
        if (choice < 0.15 && fragment.length > 3) fragment.delete(at, 1);
        else if (choice < 0.3) {
          const paragraph = new Y.XmlElement('paragraph');
          paragraph.insert(0, [new Y.XmlText(`Added ${Math.floor(next() * 1000)}.`)]);
          fragment.insert(at, [paragraph]);
        } else {
          const text = (fragment.get(at) as Y.XmlElement).get(0) as Y.XmlText | undefined;
          if (!text) return typed();
          if (choice < 0.45 && text.length > 2) text.delete(0, 1);
          else text.insert(Math.floor(next() * (text.length + 1)), ` w${Math.floor(next() * 100)}`);
        }
        return Y.encodeStateAsUpdate(client, before);
      };
      const store = (update: Uint8Array) => appendUpdates(ctx, [fast, full].map((name) => ({ name, update, userId: user.id })));
      const markdownOf = async (name: LiveName) => {
        const view = await getChangeRequestPage(ctx, spaceId, name.changeRequestId, pageId, { format: 'markdown' });
        const body = await view.body();
        return body && body.format === 'markdown' ? body.markdown : JSON.stringify(body);
      };
      const storedContent = async (name: LiveName) => {
        const doc = new Y.Doc();
        for (const part of (await loadLive(ctx, name))!.parts) Y.applyUpdate(doc, part);
        return editorContentOf(doc);
      };
      // A wait of a random length: microtasks (SQLite's queries settle in them) or turns of the event loop
      // (PostgreSQL's answer in them), so the edit lands anywhere in the write.
      const aWhile = async () => {
        if (next() < 0.5) for (let i = Math.floor(next() * 3000); i > 0; i--) await Promise.resolve();
        else for (let i = Math.floor(next() * 30); i > 0; i--) await new Promise((resolve) => setImmediate(resolve));
      };

      let raced = 0;
      for (let round = 0; round < 40; round++) {
        const event = next();
        if (event < 0.35) {
          // An edit of a connection of this process: stored, then applied to its document.
          const update = typed();
          await store(update);
          Y.applyUpdate(held, update);
        } else if (event < 0.5) {
          // An edit of another process's connection: stored only.
          await store(typed());
        } else if (event < 0.6) {
          // Another process's compaction.
          await compactLive(t.ctx, fast, null);
          await compactLive(t.ctx, full, null);
        } else if (event < 0.8) {
          // An edit stored while this process writes: some land after the write read the stored parts.
          const update = typed();
          const writing = writeLive(t.app.services, fast, held, actor, log);
          await aWhile();
          await store(update);
          await writing;
          raced++;
          await writeLive(t.app.services, full, new Y.Doc(), actor, log);
        } else {
          await writeLive(t.app.services, fast, held, actor, log);
          await writeLive(t.app.services, full, new Y.Doc(), actor, log);
          assert.equal(await markdownOf(fast), await markdownOf(full), `round ${round}: the pages' Markdown differ`);
          assert.deepEqual(editorContentOf(held), await storedContent(fast), `round ${round}: the held document is not what is stored`);
        }
      }
      // A last quiet write of both: everything stored is written.
      await writeLive(t.app.services, fast, held, actor, log);
      await writeLive(t.app.services, full, new Y.Doc(), actor, log);
      assert.equal(await markdownOf(fast), await markdownOf(full), 'the pages’ Markdown differ at the end');
      assert.deepEqual(editorContentOf(held), await storedContent(fast), 'the held document is not what is stored at the end');
      assert.deepEqual(editorContentOf(held), editorContentOf(client), 'the held document is not the client’s');
      assert.ok(raced > 3, `only ${raced} writes raced an edit`);
    });
  });
}
