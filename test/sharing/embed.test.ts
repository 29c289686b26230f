import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI } from '@gitbook/api';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/** Embeds: a real HTTP server on 127.0.0.1 serves pages; the address guard refuses it unless private addresses are allowed. */
for (const dialect of dialects) {
  describe(`embeds [${dialect}]`, () => {
    let server: Server;
    let origin: string;
    let open: TestApp;
    let guarded: TestApp;
    before(async () => {
      server = createServer((request, response) => {
        if (request.url === '/video') {
          response.setHeader('content-type', 'text/html; charset=utf-8');
          response.end(`<html><head><title>Fallback</title><meta property="og:title" content="A &amp; B video"><link rel="icon" href="/icon.png"><link rel="alternate" type="application/json+oembed" href="/oembed?u=1"></head><body></body></html>`);
        } else if (request.url === '/oembed?u=1') {
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify({ type: 'video', html: '<iframe src="https://player.example/1"></iframe>', provider_name: 'Example Video' }));
        } else if (request.url === '/article') {
          response.setHeader('content-type', 'text/html');
          response.end('<html><head><title>An article</title></head></html>');
        } else if (request.url === '/files/report.pdf') {
          response.setHeader('content-type', 'application/pdf');
          response.end('%PDF-1.4');
        } else {
          response.statusCode = 404;
          response.end('missing');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      open = await createTestApp(dialect, { QUIRE_IMPORT_ALLOW_PRIVATE: '1' });
      guarded = await createTestApp(dialect);
    });
    after(async () => {
      await open.close();
      await guarded.close();
      await new Promise((resolve) => server.close(resolve));
    });

    async function space(t: TestApp): Promise<{ w: World; spaceId: string }> {
      const w = await createWorld(t.ctx, t.app, t.clock);
      const { spaceId } = await createSpaceWithPages(t.ctx, w.organizationId, [{ type: 'document', title: 'A', markdown: 'A.\n' }]);
      return { w, spaceId };
    }

    it('resolves a page with oEmbed HTML as rich, a plain page and a file as links', async () => {
      const { w, spaceId } = await space(open);
      const api = new GitBookAPI({ endpoint: await open.app.listen({ host: '127.0.0.1', port: 0 }), authToken: w.members.read.token });
      const video = await api.spaces.getEmbedByUrlInSpace(spaceId, { url: `${origin}/video` });
      assert.deepEqual(video.data, { type: 'rich', title: 'A & B video', site: 'Example Video', icon: `${origin}/icon.png`, html: '<iframe src="https://player.example/1"></iframe>' });
      const article = await w.members.read.api.get(`/v1/spaces/${spaceId}/embed?url=${encodeURIComponent(`${origin}/article`)}`);
      assert.deepEqual(article.body, { type: 'link', title: 'An article', site: '127.0.0.1', icon: `${origin}/favicon.ico` });
      const file = await w.members.read.api.get(`/v1/spaces/${spaceId}/embed?url=${encodeURIComponent(`${origin}/files/report.pdf`)}`);
      assert.deepEqual(file.body, { type: 'link', title: 'report.pdf', site: '127.0.0.1' });
      assertError(await w.members.read.api.get(`/v1/spaces/${spaceId}/embed?url=${encodeURIComponent(`${origin}/gone`)}`), 400, '404');
      assertError(await w.members.read.api.get(`/v1/spaces/${spaceId}/embed?url=not-a-url`), 400, 'not a valid URL');
      assertError(await w.members.read.api.get(`/v1/spaces/${spaceId}/embed?url=${encodeURIComponent('file:///etc/passwd')}`), 400, 'http');
      assertError(await w.guest.api.get(`/v1/spaces/${spaceId}/embed?url=${encodeURIComponent(`${origin}/article`)}`), 404);
    });

    it('refuses private addresses through the address guard', async () => {
      const { w, spaceId } = await space(guarded);
      assertError(await w.members.read.api.get(`/v1/spaces/${spaceId}/embed?url=${encodeURIComponent(`${origin}/article`)}`), 400, 'embed URL leads to 127.0.0.1');
    });
  });
}
