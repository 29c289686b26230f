import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';

for (const dialect of dialects) {
  describe(`file downloads by signed URL [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    const ids: Record<string, string> = {};
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(4096)]);

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app);
      spaceId = await createSpace(t.ctx, world.organizationId);
      await editContent(t.ctx, spaceId, async (writer) => {
        ids.png = await addFile(t.ctx, writer, { name: 'diagram.png', contentType: 'image/png', bytes: png });
        ids.html = await addFile(t.ctx, writer, { name: 'page "one".html', contentType: 'text/html', bytes: '<script>alert(1)</script>' });
        ids.résumé = await addFile(t.ctx, writer, { name: 'résumé.pdf', contentType: 'application/pdf', bytes: '%PDF-1.4' });
      });
    });
    after(() => t.close());

    /** The download URL the API gives a reader, as a path on the app. */
    const urlFor = async (fileId: string): Promise<string> => {
      const reply = await world.members.read.api.get(`/v1/spaces/${spaceId}/content/files/${fileId}`);
      assert.equal(reply.status, 200);
      const url = new URL(reply.body.downloadURL);
      assert.equal(url.origin, 'http://quire.test');
      return url.pathname + url.search;
    };
    const download = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url });
    const errorOf = (response: { statusCode: number; body: string }) => JSON.parse(response.body).error as { code: number; message: string };

    it('streams the exact bytes with their Content-Type and Content-Length, without a token', async () => {
      const response = await download(await urlFor(ids.png));
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['content-type'], 'image/png');
      assert.equal(response.headers['content-length'], String(png.length));
      assert.ok(response.rawPayload.equals(png), 'the same bytes');
      assert.match(String(response.headers['content-disposition']), /^inline; filename="diagram.png"/);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.match(String(response.headers['cache-control']), /^private, max-age=\d+/);
    });

    it('offers active content as an attachment in a sandbox, and names files in UTF-8', async () => {
      const html = await download(await urlFor(ids.html));
      assert.equal(html.statusCode, 200);
      assert.equal(html.headers['content-type'], 'text/html');
      assert.equal(html.headers['content-disposition'], `attachment; filename="page _one_.html"; filename*=UTF-8''page%20%22one%22.html`);
      assert.match(String(html.headers['content-security-policy']), /sandbox/);
      assert.equal(html.body, '<script>alert(1)</script>');
      const pdf = await download(await urlFor(ids.résumé));
      assert.match(String(pdf.headers['content-disposition']), /^inline; filename="r_sum_.pdf"; filename\*=UTF-8''r%C3%A9sum%C3%A9.pdf$/);
    });

    it('answers HEAD with the headers and no body', async () => {
      const response = await download(await urlFor(ids.png), 'HEAD');
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'image/png');
      assert.equal(response.headers['content-length'], String(png.length));
      assert.equal(response.rawPayload.length, 0);
    });

    it('gives the same URL for a while, so the bytes can be cached', async () => {
      assert.equal(await urlFor(ids.png), await urlFor(ids.png));
    });

    it('refuses an altered URL with 403', async () => {
      const url = new URL(await urlFor(ids.png), 'http://quire.test');
      const variants: Array<[string, (u: URL) => void]> = [
        ['signature', (u) => u.searchParams.set('signature', `${u.searchParams.get('signature')!.slice(0, -2)}AA`)],
        ['expiry', (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))],
        ['revision', (u) => u.searchParams.set('revision', 'other')],
        ['file', (u) => (u.pathname = `/files/${spaceId}/${ids.html}`)],
        ['space', (u) => (u.pathname = `/files/other/${ids.png}`)],
      ];
      for (const [what, alter] of variants) {
        const altered = new URL(url);
        alter(altered);
        const response = await download(altered.pathname + altered.search);
        assert.equal(response.statusCode, 403, `altered ${what}: ${response.body}`);
        assert.match(errorOf(response).message, /not valid/);
      }
    });

    it('refuses an expired URL with 410', async () => {
      const url = await urlFor(ids.png);
      t.clock.advance(2 * 3600 * 1000 + 1000);
      const response = await download(url);
      assert.equal(response.statusCode, 410, response.body);
      assert.deepEqual(errorOf(response).code, 410);
      assert.match(errorOf(response).message, /expired/);
      assert.equal((await download(await urlFor(ids.png))).statusCode, 200, 'a fresh URL works');
    });

    it('names a missing query parameter', async () => {
      const url = new URL(await urlFor(ids.png), 'http://quire.test');
      url.searchParams.delete('signature');
      const response = await download(url.pathname + url.search);
      assert.equal(response.statusCode, 400);
      assert.match(errorOf(response).message, /"signature"/);
    });

    it('serves nothing once the space is deleted', async () => {
      const other = await createSpace(t.ctx, world.organizationId);
      let fileId = '';
      await editContent(t.ctx, other, async (writer) => void (fileId = await addFile(t.ctx, writer, { name: 'a.txt', contentType: 'text/plain', bytes: 'a' })));
      const reply = await world.admin.api.get(`/v1/spaces/${other}/content/files/${fileId}`);
      const url = new URL(reply.body.downloadURL);
      await t.ctx.db.updateTable('spaces').set({ deleted_at: t.clock.now().toISOString() }).where('id', '=', other).execute();
      const response = await download(url.pathname + url.search);
      assert.equal(response.statusCode, 404);
    });
  });
}
