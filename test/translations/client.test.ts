import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI, TranslationLanguage } from '@gitbook/api';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import { runJobs } from './support.ts';
import { needs } from '../helpers/system.ts';

/**
 * The five operations of translations and the three of the glossary through the public client, over real
 * HTTP, on both databases; every answer validated against the client's document (the test app's hook).
 * The engine is Apertium (Debian's apertium and apertium-eng-spa), so translations really run.
 */
for (const dialect of dialects) {
  describe(`translations through the public client [${dialect}]`, { skip: needs('apertium') }, () => {
    let t: TestApp;
    let world: World;
    let api: GitBookAPI;
    let orgId: string;
    let spaceId: string;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_TRANSLATION_ENGINE: 'apertium' });
      world = await createWorld(t.ctx, t.app, t.clock);
      orgId = world.organizationId;
      ({ spaceId } = await createSpaceWithPages(t.ctx, orgId, [{ type: 'document', title: 'Welcome', markdown: 'The dog eats the apple.\n' }], { title: 'Handbook' }));
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      api = new GitBookAPI({ endpoint: address, authToken: world.admin.token });
    });
    after(() => t.close());

    it('creates, reads, lists, updates and deletes a translation', async () => {
      const created = await api.orgs.createTranslation(orgId, { language: TranslationLanguage.Es, source: { space: spaceId, language: TranslationLanguage.En } });
      assert.equal(created.status, 201);
      const translation = created.data;
      assert.equal(translation.object, 'translation');
      assert.equal(translation.status, 'pending');
      assert.deepEqual(translation.source, { space: spaceId, language: 'en' });
      assert.deepEqual(translation.permissions, { view: true, edit: true });
      assert.equal(translation.result, undefined);

      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const done = (await api.orgs.getTranslation(orgId, translation.id)).data;
      assert.equal(done.status, 'completed');
      assert.ok(done.result?.space && done.result.revision);
      assert.equal(done.stats.runs, 1);
      assert.equal(done.stats.latestPages, 1);
      assert.equal(done.stats.totalPages, 1);
      assert.ok(done.stats.latestWords >= 5, JSON.stringify(done.stats));

      const page = await api.spaces.getPageByPath(done.result!.space, 'welcome', { format: 'markdown' } as never);
      assert.match(JSON.stringify(page.data), /perro/i);

      const list = await api.orgs.listTranslations(orgId);
      assert.deepEqual(list.data.items.map((item) => item.id), [translation.id]);
      assert.equal(list.data.count, 1);

      const instructions = { object: 'document' as const, data: {}, nodes: [{ object: 'block' as const, type: 'paragraph' as const, data: {}, nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: 'Use a friendly tone.', marks: [] }] }] }] };
      const updated = await api.orgs.updateTranslation(orgId, translation.id, { instructions } as never);
      assert.equal(updated.data.status, 'pending');
      assert.equal(JSON.stringify(updated.data.instructions).includes('friendly tone'), true);

      const removed = await api.orgs.deleteTranslation(orgId, translation.id);
      assert.equal(removed.status, 205);
      const again = await api.orgs.deleteTranslation(orgId, translation.id);
      assert.equal(again.status, 204);
      const result = await api.spaces.getSpaceById(done.result!.space);
      assert.equal(result.data.editMode, 'live', 'the result space stays, unlocked');
    });

    it('manages the glossary in batches', async () => {
      const batch = await api.orgs.updateGlossaryEntries(orgId, {
        operations: [
          { type: 'insert', translations: { en: 'space', es: 'espacio' } },
          { type: 'insert', translations: { en: 'site', fr: 'site' } },
        ],
      } as never);
      assert.equal(batch.status, 204);
      const list = (await api.orgs.listGlossaryEntries(orgId)).data;
      assert.equal(list.count, 2);
      // Entries made in one batch share their creation time: the list orders them by id.
      const space = list.items.find((entry) => entry.translations.en === 'space')!;
      const site = list.items.find((entry) => entry.translations.en === 'site')!;
      assert.deepEqual(space.translations, { en: 'space', es: 'espacio' });
      const one = (await api.orgs.getGlossaryEntry(orgId, site.id)).data;
      assert.equal(one.object, 'glossary-entry');
      await api.orgs.updateGlossaryEntries(orgId, { operations: [{ type: 'update', id: space.id, translations: { en: 'space', es: 'espacio de trabajo' } }, { type: 'delete', id: site.id }] } as never);
      const after = (await api.orgs.listGlossaryEntries(orgId)).data;
      assert.deepEqual(after.items.map((entry) => entry.translations), [{ en: 'space', es: 'espacio de trabajo' }]);
    });

    it('refuses what cannot be done with a message', async () => {
      const admin = world.admin.api;
      const base = `/v1/orgs/${orgId}/translations`;
      assertError(await admin.post(base, { language: 'xx', source: { space: spaceId } }), 400, 'language');
      assertError(await admin.post(base, { language: 'de', source: { space: spaceId } }), 400, 'en → es');
      assertError(await admin.post(base, { language: 'es', source: { space: 'nope' } }), 400, 'source.space');
      assertError(await admin.post(base, { language: 'en', source: { space: spaceId } }), 400, 'already in');
      assert.equal((await admin.post(base, { language: 'es', source: { space: spaceId } })).status, 201);
      assertError(await admin.post(base, { language: 'es', source: { space: spaceId } }), 409, 'already translated');
      assertError(await admin.get(`${base}/missing`), 404);
      assertError(await admin.put(`${base}/missing`, { instructions: { object: 'document', data: {}, nodes: [] } }), 404);
      assertError(await admin.put(`/v1/orgs/${orgId}/translations-glossary`, { operations: [{ type: 'update', id: 'missing', translations: { en: 'x' } }] }), 400, 'operations[0]');
      assertError(await admin.put(`/v1/orgs/${orgId}/translations-glossary`, { operations: [{ type: 'insert', translations: { xx: 'x' } }] }), 400, 'xx');
      assertError(await admin.get(`/v1/orgs/${orgId}/translations-glossary/missing`), 404);
    });
  });

  describe(`translations: who may do what [${dialect}]`, { skip: needs('apertium') }, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let translationId: string;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_TRANSLATION_ENGINE: 'apertium' });
      world = await createWorld(t.ctx, t.app, t.clock);
      ({ spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Welcome', markdown: 'Hello.\n' }]));
      const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'es', source: { space: spaceId } });
      translationId = created.body.id;
    });
    after(() => t.close());

    const expected: Record<string, { view: boolean; edit: boolean; glossary: boolean }> = {
      admin: { view: true, edit: true, glossary: true },
      create: { view: true, edit: true, glossary: true },
      review: { view: true, edit: false, glossary: true },
      edit: { view: true, edit: false, glossary: true },
      comment: { view: true, edit: false, glossary: true },
      read: { view: true, edit: false, glossary: true },
      guest: { view: false, edit: false, glossary: false },
      outsider: { view: false, edit: false, glossary: false },
    };

    it('answers each role, the guest and the outsider as the policy says', async () => {
      const org = world.organizationId;
      const base = `/v1/orgs/${org}/translations`;
      const instructions = { object: 'document', data: {}, nodes: [] };
      for (const [name, user] of cast(world)) {
        const rule = expected[name];
        const get = await user.api.get(`${base}/${translationId}`);
        if (rule.view) {
          assert.equal(get.status, 200, name);
          assert.deepEqual(get.body.permissions, { view: true, edit: rule.edit }, name);
        } else assertError(get, 404);
        const list = await user.api.get(base);
        if (name === 'outsider') assertError(list, 404);
        else assert.equal(list.body.count, rule.view ? 1 : 0, name);
        const put = await user.api.put(`${base}/${translationId}`, { instructions });
        if (rule.edit) assert.equal(put.status, 200, name);
        else assertError(put, rule.view ? 403 : 404);
        const post = await user.api.post(base, { language: 'es', source: { space: spaceId } });
        if (rule.edit) assertError(post, 409);
        else if (name === 'outsider' || name === 'guest') assertError(post, name === 'outsider' ? 404 : 400);
        else assertError(post, 403);
        const glossary = await user.api.get(`/v1/orgs/${org}/translations-glossary`);
        if (rule.glossary) assert.equal(glossary.status, 200, name);
        else assertError(glossary, name === 'outsider' ? 404 : 403);
        const batch = await user.api.put(`/v1/orgs/${org}/translations-glossary`, { operations: [] });
        if (rule.edit) assert.equal(batch.status, 204, name);
        else assertError(batch, name === 'outsider' ? 404 : 403);
        if (!rule.edit) {
          const removal = await user.api.delete(`${base}/${translationId}`);
          if (name === 'outsider') assertError(removal, 404);
          else if (rule.view) assertError(removal, 403);
          else assert.equal(removal.status, 204, name);
        }
      }
      assert.equal((await world.members.create.api.delete(`${base}/${translationId}`)).status, 205);
    });
  });
}
