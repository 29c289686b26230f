import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MEMBER_ROLES } from '../../src/policy/roles.ts';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { startUpperCaseEngine, type TestEngine } from '../helpers/upper-case-engine.ts';
import { runJobs } from './support.ts';

/**
 * The organization's translation engine (decision 0114): read by members, chosen by administrators among the
 * engines the server offers (the configured DeepL-compatible server and the local Apertium command), audited,
 * and used by the next translation.
 */

for (const dialect of dialects) {
  describe(`the organization's translation engine [${dialect}]`, { skip: needs('apertium') }, () => {
    let t: TestApp;
    let world: World;
    let engine: TestEngine;
    const path = () => `/v1/orgs/${world.organizationId}/translations-engine`;

    before(async () => {
      engine = await startUpperCaseEngine();
      t = await createTestApp(dialect, { QUIRE_TRANSLATION_ENGINE: 'deepl', QUIRE_TRANSLATION_URL: engine.url, QUIRE_TRANSLATION_API_KEY: 'test-key' });
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(async () => {
      await t?.close();
      await engine?.close();
    });

    it('is read by members only, and shows the server engine and what may be chosen', async () => {
      for (const [who, user] of cast(world)) {
        const reply = await user.api.get(path());
        if (who === 'outsider') assertError(reply, 404);
        else if (who === 'guest') assertError(reply, 403, /Guests cannot see the translation engine/);
        else assert.deepEqual(reply.body, { engine: 'deepl', chosen: null, server: 'deepl', offered: ['deepl', 'apertium'] }, who);
      }
    });

    it('is chosen by administrators only, among the offered engines', async () => {
      for (const [who, user] of cast(world)) {
        if (who === 'admin') continue;
        if (who === 'outsider') assertError(await user.api.put(path(), { engine: 'apertium' }), 404);
        else assertError(await user.api.put(path(), { engine: 'apertium' }), 403, /Only administrators of the organization can choose its translation engine/);
      }
      assert.equal((await world.admin.api.get(path())).body.chosen, null, 'no refused call changed it');
      assertError(await world.admin.api.put(path(), { engine: 'libretranslate' }), 400, /does not offer/);
      assertError(await world.admin.api.put(path(), { engine: 'apertium', url: 'http://elsewhere.test' }), 400);
      assertError(await world.admin.api.put(path(), {}), 400, /engine/);
      const chosen = await world.admin.api.put(path(), { engine: 'apertium' });
      assert.equal(chosen.status, 200);
      assert.deepEqual(chosen.body, { engine: 'apertium', chosen: 'apertium', server: 'deepl', offered: ['deepl', 'apertium'] });
      for (const role of MEMBER_ROLES) assert.equal((await world.members[role].api.get(path())).body.engine, 'apertium', role);
      const audit = await world.admin.api.get(`/v1/orgs/${world.organizationId}/audit-log?operation=updateTranslationEngine&outcome=succeeded`);
      assert.equal(audit.status, 200);
      assert.equal(audit.body.items.length, 1, 'the one change is in the audit log');
      assert.equal(audit.body.items[0].actor.userId, world.admin.id);
      const refused = await world.admin.api.get(`/v1/orgs/${world.organizationId}/audit-log?operation=updateTranslationEngine&outcome=refused`);
      assert.ok(refused.body.items.length >= 5, 'the refused attempts of members are audited too');
    });

    it('translates with the chosen engine, and with the server engine again after null', async () => {
      await world.admin.api.put(path(), { engine: 'apertium' });
      const first = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Dogs', markdown: 'The dog eats the apple.\n' }], { title: 'Dogs' });
      const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'es', source: { space: first.spaceId, language: 'en' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const spanish = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`)).body;
      const [translatedPage] = (await world.admin.api.get(`/v1/spaces/${spanish.result.space}/content`)).body.pages;
      assert.match(translatedPage.title, /Perros/, 'Apertium translated the title');

      const back = await world.admin.api.put(path(), { engine: null });
      assert.deepEqual(back.body, { engine: 'deepl', chosen: null, server: 'deepl', offered: ['deepl', 'apertium'] });
      const second = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Cats', markdown: 'The cat sleeps.\n' }], { title: 'Cats' });
      const again = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'de', source: { space: second.spaceId, language: 'en' } });
      assert.equal(again.status, 201, JSON.stringify(again.body));
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const german = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${again.body.id}`)).body;
      const [upperPage] = (await world.admin.api.get(`/v1/spaces/${german.result.space}/content`)).body.pages;
      assert.equal(upperPage.title, 'CATS', 'the DeepL-compatible server translated it');
    });
  });
}
