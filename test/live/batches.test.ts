import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as Y from 'yjs';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { UpdateBatcher } from '../../src/live/appends.ts';
import { compactLive, createLive, loadLive } from '../../src/live/store.ts';
import { parseLiveName, type LiveName } from '../../src/live/names.ts';

/**
 * The updates of live connections are stored in batches (src/live/appends.ts), on both databases: the
 * updates of one turn are one batch, stored in the order they came and settled only once stored; a batch
 * that fails stores none of its updates and refuses every one (none is acknowledged). Compaction, done a
 * step at a time outside a transaction, keeps every update, also when two compactions race.
 */
for (const dialect of dialects) {
  describe(`live update batches [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let pageId: string;

    /** A new live document (its change request made through the API) and a writer's Yjs document on it. */
    async function newDocument(): Promise<{ name: LiveName; doc: Y.Doc }> {
      const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Batches' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const name = parseLiveName(`${world.organizationId}/${spaceId}/${created.body.id}/${pageId}`);
      const doc = new Y.Doc();
      doc.getText('t').insert(0, '>');
      await createLive(t.ctx, name, Y.encodeStateAsUpdate(doc), created.body.revision as string);
      return { name, doc };
    }

    /** The updates of `count` keystrokes, each typed after the one before. */
    function keystrokes(doc: Y.Doc, count: number): Uint8Array[] {
      const updates: Uint8Array[] = [];
      const record = (update: Uint8Array) => updates.push(update);
      doc.on('update', record);
      for (let i = 0; i < count; i++) doc.getText('t').insert(doc.getText('t').length, String(i % 10));
      doc.off('update', record);
      return updates;
    }

    const storedText = async (name: LiveName) => {
      const stored = await loadLive(t.ctx, name);
      const doc = new Y.Doc();
      for (const part of stored!.parts) Y.applyUpdate(doc, part);
      return doc.getText('t').toString();
    };

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      await editContent(t.ctx, spaceId, (writer) => {
        pageId = writer.addPage({ type: 'document', title: 'Notes', markdown: 'One.\n' });
      });
    });
    after(async () => t.close());

    it('stores the updates of one turn as one batch, in order, and settles each only once stored', async () => {
      const { name, doc } = await newDocument();
      const expected = doc.getText('t').toString() + Array.from({ length: 301 }, (_, i) => String(i % 10)).join('');
      // 301 updates: more than one insert statement (128 + 128 + 32 + 8 + 1 + ...), so one transaction.
      const updates = keystrokes(doc, 301);
      const batcher = new UpdateBatcher(t.app.services);
      const settled: number[] = [];
      const appended = updates.map((update, i) => batcher.append({ name, update, userId: world.members.edit.id }).then(() => settled.push(i)));
      assert.equal(settled.length, 0, 'nothing is settled before the batch is stored');
      await Promise.all(appended);
      assert.deepEqual(settled, updates.map((_, i) => i), 'settled in the order received');
      assert.equal(batcher.batches, 1);
      assert.equal(batcher.stored, 301);
      assert.equal(await storedText(name), expected);

      // Updates arriving while a batch is stored form the next one (two batches, nothing lost).
      const more = keystrokes(doc, 5);
      const first = batcher.append({ name, update: more[0], userId: world.members.edit.id });
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([first, ...more.slice(1).map((update) => batcher.append({ name, update, userId: world.members.edit.id }))]);
      assert.equal(batcher.batches, 3);
      assert.equal(await storedText(name), doc.getText('t').toString());
    });

    it('a batch that fails stores none of its updates and refuses each of them', async () => {
      const { name, doc } = await newDocument();
      const before = await storedText(name);
      const updates = keystrokes(doc, 40);
      const gone = parseLiveName(`${world.organizationId}/${spaceId}/${name.changeRequestId}/nopage`);
      const batcher = new UpdateBatcher(t.app.services);
      // The last update names a document that was never stored: its row breaks the foreign key.
      const outcomes = await Promise.allSettled([...updates.map((update) => batcher.append({ name, update, userId: world.members.edit.id })), batcher.append({ name: gone, update: updates[0], userId: world.members.edit.id })]);
      assert.equal(outcomes.filter((outcome) => outcome.status === 'rejected').length, 41);
      assert.equal(await storedText(name), before, 'none of the batch was stored');
      assert.equal(batcher.batches, 0);
    });
    it('compacts more updates than one step, also two compactions at once, losing none', async () => {
      const { name, doc } = await newDocument();
      const batcher = new UpdateBatcher(t.app.services);
      await Promise.all(keystrokes(doc, 1200).map((update) => batcher.append({ name, update, userId: world.members.edit.id })));
      assert.equal(await storedText(name), doc.getText('t').toString());
      // Both read the same state and updates; the second to commit finds the state changed and does it again.
      const late = keystrokes(doc, 3);
      const [a, b] = await Promise.all([compactLive(t.ctx, name, null), compactLive(t.ctx, name, null), ...late.map((update) => batcher.append({ name, update, userId: world.members.edit.id }))]);
      assert.ok(a > 0 && b >= a, 'the later compaction holds at least what the first did');
      assert.equal(await storedText(name), doc.getText('t').toString());
      await compactLive(t.ctx, name, null);
      const left = await t.ctx.db.selectFrom('live_updates').select('id').where('document', '=', name.key).execute();
      assert.equal(left.length, 0, 'every update folded into the state');
      assert.equal(await storedText(name), doc.getText('t').toString());
    });
  });
}
