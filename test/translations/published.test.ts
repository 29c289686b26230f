import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { addVariant, browse, createSite, type SiteHandle } from '../published/support.ts';
import { runJobs } from './support.ts';
import { needs } from '../helpers/system.ts';

/**
 * A translated space published beside its source: the result space is a variant of the site; the reader
 * marks each page's language, offers a switcher to the same page in the other language, and lists hreflang
 * alternates; the sitemap has both languages.
 */
for (const dialect of dialects) {
  describe(`a translation published side by side [${dialect}]`, { skip: needs('apertium') }, () => {
    let t: TestApp;
    let world: World;
    let site: SiteHandle;
    let variantPath: string;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_TRANSLATION_ENGINE: 'apertium' });
      world = await createWorld(t.ctx, t.app, t.clock);
      const { spaceId } = await createSpaceWithPages(
        t.ctx,
        world.organizationId,
        [
          { type: 'document', title: 'Welcome', markdown: 'The dog eats the apple.\n' },
          { type: 'document', title: 'Install', markdown: 'Open the red door.\n' },
        ],
        { title: 'Handbook', visibility: 'public' },
      );
      const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'es', source: { space: spaceId } });
      assert.equal(created.status, 201);
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const translation = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`)).body;
      site = await createSite(world.admin, world.organizationId, { title: 'Docs', visibility: 'public', spaces: [spaceId] });
      variantPath = (await addVariant(world.admin, world.organizationId, site.id, translation.result.space)).path;
    });
    after(() => t.close());

    it('marks the language and links the same page in the other language', async () => {
      const english = await browse(t.app, `${site.root}/install`);
      assert.equal(english.status, 200, english.body.slice(0, 300));
      assert.match(english.body, /<html lang="en"[ >]/);
      const origin = new URL(site.url).origin;
      assert.ok(english.body.includes(`<link rel="alternate" hreflang="es" href="${origin}${site.root}/${variantPath}/install">`), english.body.slice(0, 1500));
      assert.ok(english.body.includes(`<link rel="alternate" hreflang="en" href="${origin}${site.root}/install">`));
      assert.ok(english.body.includes('hreflang="x-default"'));
      assert.match(english.body, /<nav class="variant-switcher language-switcher" aria-label="Languages">/);
      assert.match(english.body, new RegExp(`<a href="${site.root}/${variantPath}/install" hreflang="es" lang="es">Español</a>`));

      const spanish = await browse(t.app, `${site.root}/${variantPath}/install`);
      assert.equal(spanish.status, 200);
      assert.match(spanish.body, /<html lang="es"[ >]/);
      assert.match(spanish.body, /puerta roja/i);
      assert.match(spanish.body, new RegExp(`<a href="${site.root}/install" hreflang="en" lang="en">English</a>`));
    });

    it('lists every language in the sitemap', async () => {
      const sitemap = await browse(t.app, `${site.root}/sitemap.xml`);
      assert.equal(sitemap.status, 200);
      assert.match(sitemap.body, new RegExp(`${site.root}/install</loc>`));
      assert.match(sitemap.body, new RegExp(`${site.root}/${variantPath}/install</loc>`));
    });
  });
}
