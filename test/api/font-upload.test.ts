import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { collectGarbage } from '../../src/content/gc.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type TestUser, type World } from '../helpers/factories.ts';
import { browse, createSite, type SiteHandle } from '../published/support.ts';

/**
 * Custom font upload (issue 23 point 11): generateStorageUploadURL, the bytes PUT to the signed address and
 * checked as a font, createCustomFont naming the key, the published site serving @font-face with it, the
 * content collector keeping the file while a font names it; and the customization preview address.
 */
const require = createRequire(import.meta.url);
const WOFF2 = readFileSync(require.resolve('katex/dist/fonts/KaTeX_Main-Bold.woff2'));
const WOFF = readFileSync(require.resolve('katex/dist/fonts/KaTeX_Main-Bold.woff'));

for (const dialect of dialects) {
  describe(`custom font upload [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let org: string;
    let site: SiteHandle;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      org = world.organizationId;
      const { spaceId } = await createSpaceWithPages(t.ctx, org, [{ type: 'document', title: 'Welcome', markdown: 'Hello readers.\n' }], { title: 'Guides' });
      site = await createSite(world.admin, org, { title: 'Type Foundry', visibility: 'public', spaces: [spaceId] });
    });
    after(() => t.close());

    const ask = (user: TestUser, file: { name: string; type: string; size: number }) => user.api.post(`/v1/orgs/${org}/storage/upload`, { file, kind: 'customization_font' });
    const put = async (url: string, bytes: Buffer, type = 'font/woff2') => {
      const { pathname, search } = new URL(url);
      const response = await t.app.inject({ method: 'PUT', url: `${pathname}${search}`, headers: { 'content-type': type }, payload: bytes });
      return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined };
    };
    const upload = async (bytes: Buffer, name = 'brand.woff2') => {
      const signed = await ask(world.admin, { name, type: name.endsWith('2') ? 'font/woff2' : 'font/woff', size: bytes.length });
      assert.equal(signed.status, 201, JSON.stringify(signed.body));
      const stored = await put(signed.body.url, bytes, name.endsWith('2') ? 'font/woff2' : 'font/woff');
      return { signed: signed.body as { object: string; url: string; key: string }, stored };
    };

    it('gives a signed address and a key, and keeps a real font PUT there', async () => {
      const { signed, stored } = await upload(WOFF2);
      assert.equal(signed.object, 'storage-signed-url');
      assert.match(signed.key, /^font-[\w-]+\.woff2$/);
      assert.equal(stored.status, 200, JSON.stringify(stored.body));
      assert.deepEqual(stored.body, { key: signed.key, size: WOFF2.length, fontFamily: 'KaTeX_Main', format: 'woff2' });
      // One upload per address.
      assert.equal((await put(signed.url, WOFF2)).status, 409);
      const woff = await upload(WOFF, 'brand.woff');
      assert.equal(woff.stored.status, 200, JSON.stringify(woff.stored.body));
      assert.equal(woff.stored.body.format, 'woff');
    });

    it('refuses what is not a font, a damaged font, a wrong size, a forged or expired address, and too much', async () => {
      const refusedBody = (reply: { status: number; body: any }, status: number, pattern: RegExp) => {
        assert.equal(reply.status, status, JSON.stringify(reply.body));
        assert.equal(reply.body.error.code, status);
        assert.match(reply.body.error.message, pattern);
      };
      refusedBody(await ask(world.admin, { name: 'brand.ttf', type: 'font/ttf', size: 100 }), 400, /woff2/);
      refusedBody(await ask(world.admin, { name: 'huge.woff2', type: 'font/woff2', size: 6 * 1024 * 1024 }), 400, /at most/);
      const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200)]);
      refusedBody((await upload(png)).stored, 400, /not a WOFF2 or WOFF font/);
      // The real header, the rest cut short: fontkit cannot read its tables.
      const damaged = Buffer.concat([WOFF2.subarray(0, 200), Buffer.alloc(300)]);
      refusedBody((await upload(damaged)).stored, 400, /damaged|no glyphs|no family/);
      // A WOFF named .woff2.
      refusedBody((await upload(WOFF, 'other.woff2')).stored, 400, /WOFF font, but its name says WOFF2/);
      const signed = await ask(world.admin, { name: 'a.woff2', type: 'font/woff2', size: WOFF2.length + 1 });
      refusedBody(await put(signed.body.url, WOFF2), 400, /were announced/);
      const forged = new URL(signed.body.url);
      forged.searchParams.set('signature', 'x'.repeat(43));
      refusedBody(await put(forged.toString(), WOFF2), 404, /No upload/);
      const later = await ask(world.admin, { name: 'b.woff2', type: 'font/woff2', size: WOFF2.length });
      t.clock.advance(2 * 3600 * 1000);
      refusedBody(await put(later.body.url, WOFF2), 410, /expired/);
      // Readers and outsiders cannot upload.
      assert.equal((await ask(world.members.read, { name: 'c.woff2', type: 'font/woff2', size: 10 })).status, 403);
      assert.equal((await ask(world.outsider, { name: 'c.woff2', type: 'font/woff2', size: 10 })).status, 404);
    });

    it('makes a custom font of an uploaded file, which the published site serves with @font-face', async () => {
      const { signed } = await upload(WOFF2);
      // A key that was never uploaded, and another organization's key, are refused.
      const pending = await ask(world.admin, { name: 'p.woff2', type: 'font/woff2', size: WOFF2.length });
      const unsent = await world.admin.api.put(`/v1/orgs/${org}/fonts`, { fontFamily: 'Brand', fontFaces: [{ weight: 400, storageKey: pending.body.key }] });
      assert.equal(unsent.status, 400);
      assert.match(unsent.body.error.message, /not been uploaded yet/);
      const foreign = await world.outsider.api.put(`/v1/orgs/${world.otherOrganizationId}/fonts`, { fontFamily: 'Stolen', fontFaces: [{ weight: 400, storageKey: signed.key }] });
      assert.equal(foreign.status, 400);

      const created = await world.admin.api.put(`/v1/orgs/${org}/fonts`, { fontFamily: 'Brand Sans', fontFaces: [{ weight: 400, storageKey: signed.key }] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const source = created.body.fontFaces[0].sources[0];
      assert.equal(source.format, 'woff2');
      assert.equal(new URL(source.url).pathname, `/~fonts/${signed.key}`);
      const file = await t.app.inject({ method: 'GET', url: `/~fonts/${signed.key}` });
      assert.equal(file.statusCode, 200);
      assert.equal(file.headers['content-type'], 'font/woff2');
      assert.ok(file.rawPayload.equals(WOFF2), 'the bytes uploaded are the bytes served');

      const font = created.body;
      const current = (await world.admin.api.get(`/v1/orgs/${org}/sites/${site.id}/customization`)).body;
      delete current.hasOverrides;
      const customized = await world.admin.api.put(`/v1/orgs/${org}/sites/${site.id}/customization`, { ...current, styling: { ...current.styling, font: { id: font.id, custom: true, fontFamily: font.fontFamily, fontFaces: font.fontFaces } } });
      assert.equal(customized.status, 200, JSON.stringify(customized.body));
      const page = await browse(t.app, site.root);
      assert.equal(page.status, 200);
      const link = new RegExp(`<link rel="stylesheet" href="(/~fonts/css/${font.id})">`).exec(page.body);
      assert.ok(link, 'the page links the font\'s stylesheet');
      assert.match(page.body, /--q-font:&quot;Brand Sans&quot;|--q-font:"Brand Sans"/);
      const css = await browse(t.app, link[1]);
      assert.equal(css.status, 200);
      assert.match(String(css.headers['content-type']), /^text\/css/);
      assert.match(css.body, new RegExp(`@font-face\\{font-family:"Brand Sans";font-style:normal;font-weight:400;font-display:swap;src:url\\("/~fonts/${signed.key.replace('.', '\\.')}"\\) format\\("woff2"\\)\\}`));
    });

    it('counts uploaded files as roots of the content collector: kept while a font names them', async () => {
      const used = await upload(WOFF2);
      const unused = await upload(WOFF, 'spare.woff');
      const font = await world.admin.api.put(`/v1/orgs/${org}/fonts`, { fontFamily: 'Kept', fontFaces: [{ weight: 400, storageKey: used.signed.key }] });
      assert.equal(font.status, 201);
      // Within the grace both stay.
      await collectGarbage(t.ctx);
      assert.equal((await t.app.inject({ method: 'GET', url: `/~fonts/${unused.signed.key}` })).statusCode, 200);
      t.clock.advance(t.config.gcGraceMs + 60_000);
      const report = await collectGarbage(t.ctx);
      assert.ok(report.derived.uploads >= 1, JSON.stringify(report));
      assert.equal((await t.app.inject({ method: 'GET', url: `/~fonts/${used.signed.key}` })).statusCode, 200, 'a font names it: kept');
      assert.equal((await t.app.inject({ method: 'GET', url: `/~fonts/${unused.signed.key}` })).statusCode, 404, 'nothing names it: collected');
      const blob = await t.ctx.db.selectFrom('content_blobs').select('hash').where('size', '=', WOFF.length).executeTakeFirst();
      assert.equal(blob, undefined, 'the unused file\'s bytes went with it');
      // Once the font is deleted, its file goes too.
      assert.equal((await world.admin.api.delete(`/v1/orgs/${org}/fonts/${font.body.id}`)).status, 205);
      // Another font (the previous test's) still names the first upload of this size; only this test's goes.
      await collectGarbage(t.ctx);
      assert.equal((await t.app.inject({ method: 'GET', url: `/~fonts/${used.signed.key}` })).statusCode, 404);
    });

    it('previews unsaved customization: a sealed address that shows the reader with those settings, framed by Quire only', async () => {
      const current = await world.admin.api.get(`/v1/orgs/${org}/sites/${site.id}/customization`);
      const settings = { ...current.body, styling: { ...current.body.styling, primaryColor: { light: '#aa0000', dark: '#ff8888' } } };
      delete settings.hasOverrides;
      const reply = await world.admin.api.post(`/v1/orgs/${org}/sites/${site.id}/customization/preview`, { settings });
      assert.equal(reply.status, 200, JSON.stringify(reply.body) + t.violations.join('\n'));
      const url = new URL(reply.body.url);
      assert.equal(url.pathname, site.root);
      const preview = await browse(t.app, `${url.pathname}${url.search}`);
      assert.equal(preview.status, 200, preview.body);
      assert.match(preview.body, /--q-brand-light:#aa0000/);
      assert.match(String(preview.headers['content-security-policy']), /frame-ancestors 'self'/);
      // The saved site is unchanged, and still may not be framed.
      const saved = await browse(t.app, site.root);
      assert.doesNotMatch(saved.body, /#aa0000/);
      assert.match(String(saved.headers['content-security-policy']), /frame-ancestors 'none'/);
      // A forged or expired parameter shows nothing of the preview.
      const forged = await browse(t.app, `${url.pathname}?quire-preview=v1.AAAA.BBBB.CCCC`);
      assert.doesNotMatch(forged.body, /#aa0000/);
      t.clock.advance(11 * 60 * 1000);
      assert.doesNotMatch((await browse(t.app, `${url.pathname}${url.search}`)).body, /#aa0000/);
      // Only managers get one.
      assert.equal((await world.members.read.api.post(`/v1/orgs/${org}/sites/${site.id}/customization/preview`, { settings })).status, 403);
    });
  });
}
