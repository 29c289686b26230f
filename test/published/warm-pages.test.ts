import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { accessMemoStats, listenForAccessChanges } from '../../src/db/memo.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import type { ChannelListener } from '../../src/db/notifications.ts';
import { forgetWarmPages, warmPageStats } from '../../src/published/warm-pages.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { browse, createSite, patchSite } from './support.ts';

/**
 * Warm published pages (src/published/warm-pages.ts): answered from memory with exactly the headers and
 * bytes the reader's handler sends, and never after anything they were made from changed, nor to another
 * audience.
 */

interface Raw {
  status: number;
  /** Header names and values in the order they were sent, without Date (the clock's). */
  headers: Array<[string, string]>;
  body: Buffer;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i].toLowerCase() !== 'date') pairs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

for (const dialect of dialects) {
  describe(`warm published pages [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let listener: ChannelListener | null = null;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      if (dialect === 'postgres') {
        // As `quire serve` does: on PostgreSQL, memory is used only while the notifications are heard.
        listener = listenForAccessChanges(process.env.TEST_DATABASE_URL!, (error) => assert.fail(String(error)), t.database.schema);
        for (let i = 0; i < 200 && !accessMemoStats.listening; i++) await sleep(10);
        assert.ok(accessMemoStats.listening, 'the listener connects');
      }
    });
    after(async () => {
      await listener?.close();
      await t.close();
    });

    async function publishedSpace(title: string, markdown: string, visibility: 'public' | 'private' = 'private') {
      return createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Guide', markdown }], { title, visibility });
    }

    /**
     * Reads `url` twice; the second answer must come from memory. On PostgreSQL the notices of the writes
     * just made arrive after their commit and make the process forget (and, from another process, the rows
     * are new only once the notice arrived): read again until they are in.
     */
    async function warm(url: string, options: { cookie?: string } = {}) {
      for (let attempt = 0; ; attempt++) {
        const first = await browse(t.app, url, options);
        const hits = warmPageStats.hits;
        const second = await browse(t.app, url, options);
        if (first.status === 200 && warmPageStats.hits === hits + 1) {
          assert.equal(second.body, first.body);
          return second;
        }
        if (attempt === 100 || (dialect === 'sqlite' && attempt === 0)) assert.fail(`${url}: the second read is answered from memory (${first.status})`);
        await sleep(10);
      }
    }

    it('answers with the very status, headers and bytes of the reader: 200, and 304 to a reader who has the page', async () => {
      const { spaceId } = await publishedSpace('Headers', 'The heron stands still.\n');
      const site = await createSite(world.admin, world.organizationId, { title: 'Header Docs', visibility: 'public', spaces: [spaceId] });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as { port: number }).port;
      try {
        const route = '/sites/:organizationId/:basename/*';
        const counted = async (status: number) => {
          const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
          const line = text.split('\n').find((l) => l.startsWith('quire_http_requests_total{') && l.includes(`route="${route}"`) && l.includes(`status="${status}"`));
          return line ? Number(line.split(' ').pop()) : 0;
        };
        const url = `${site.root}/guide`;
        await warm(url);
        forgetWarmPages();
        const made = await get(port, url);
        const hits = warmPageStats.hits;
        const before200 = await counted(200);
        const kept = await get(port, url);
        assert.equal(warmPageStats.hits, hits + 1, 'answered from memory');
        assert.equal(kept.status, 200);
        assert.deepEqual(kept.headers, made.headers, 'the same headers, in the same order');
        assert.ok(kept.body.equals(made.body), 'the same bytes');
        assert.equal(await counted(200), before200 + 1, 'counted in the metrics as the reader\'s answers are');
        const names = made.headers.map(([name]) => name.toLowerCase());
        for (const name of ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'cache-control', 'etag', 'vary', 'content-type', 'content-length']) assert.ok(names.includes(name), name);
        const etag = made.headers.find(([name]) => name.toLowerCase() === 'etag')![1];

        // 304: made by the reader (nothing warm), then from memory.
        forgetWarmPages();
        const made304 = await get(port, url, { 'if-none-match': etag });
        const before304 = await counted(304);
        const kept304 = await get(port, url, { 'if-none-match': etag });
        assert.equal(warmPageStats.hits, hits + 2);
        assert.deepEqual([made304.status, kept304.status], [304, 304]);
        assert.deepEqual(kept304.headers, made304.headers);
        assert.equal(kept304.body.length, 0);
        assert.equal(await counted(304), before304 + 1);
        // A stale validator gets the page.
        const other = await get(port, url, { 'if-none-match': '"something-else"' });
        assert.equal(other.status, 200);
        assert.deepEqual(other.headers, made.headers);
      } finally {
        await t.app.server.close();
      }
    });

    it('logs and rate-limits a warm answer as the reader\'s: the same request log lines, the rate limit\'s headers', { skip: dialect !== 'sqlite' && 'the log and the rate limit are the HTTP layer\'s, the same on both databases' }, async () => {
      const lines: Array<Record<string, unknown>> = [];
      const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
      const logged = await createTestApp(dialect, { QUIRE_LOG_LEVEL: 'info', QUIRE_RATE_LIMIT: '1000' }, { logStream: stream });
      try {
        const w = await createWorld(logged.ctx, logged.app, logged.clock);
        const { spaceId } = await createSpaceWithPages(logged.ctx, w.organizationId, [{ type: 'document', title: 'Guide', markdown: 'Logged.\n' }], { title: 'Logged' });
        const site = await createSite(w.admin, w.organizationId, { title: 'Logged Docs', visibility: 'public', spaces: [spaceId] });
        const url = `${site.root}/guide`;
        const made = lines.length;
        const first = await browse(logged.app, url);
        assert.equal(first.status, 200);
        const slow = lines.slice(made);
        const hits = warmPageStats.hits;
        const second = await browse(logged.app, url);
        assert.equal(second.status, 200);
        assert.equal(warmPageStats.hits, hits + 1);
        // The rate limit's headers are this request's (its count), the rest the reader's.
        assert.ok(first.headers['x-ratelimit-remaining'] !== undefined, 'the rate limit is on');
        assert.equal(Number(second.headers['x-ratelimit-remaining']), Number(first.headers['x-ratelimit-remaining']) - 1);
        const fixed = (headers: Record<string, unknown>) => Object.entries(headers).filter(([name]) => name !== 'date' && name !== 'x-ratelimit-remaining' && name !== 'x-ratelimit-reset');
        assert.deepEqual(fixed(second.headers), fixed(first.headers));
        const warmLines = lines.slice(made + slow.length);
        const shape = (entries: Array<Record<string, unknown>>) => entries.map(({ time: _time, reqId: _reqId, responseTime: _responseTime, ...rest }) => rest);
        assert.deepEqual(slow.map((line) => line.msg), ['incoming request', 'request completed'], 'the request log is on at info');
        assert.deepEqual(shape(warmLines), shape(slow));
      } finally {
        await logged.close();
      }
    });

    it('shows a merged change at once', async () => {
      const { spaceId } = await publishedSpace('Merging', 'Heron version one.\n');
      const site = await createSite(world.admin, world.organizationId, { title: 'Merge Docs', visibility: 'public', spaces: [spaceId] });
      const url = `${site.root}/guide`;
      assert.match((await warm(url)).body, /Heron version one/);
      const pageId = ((await world.admin.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string }>)[0].id;
      const cr = await world.admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' });
      assert.equal(cr.status, 201);
      const crUrl = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
      const markdown = 'Heron version two.\n';
      const imported = await world.admin.api.post(`${crUrl}/content/page/${pageId}/import`, { source: 'markdown', url: `data:text/markdown;base64,${Buffer.from(markdown).toString('base64')}` });
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      assert.match((await browse(t.app, url)).body, /Heron version one/, 'a change request does not change the site');
      const merged = await world.admin.api.post(`${crUrl}/merge`);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      const after = await browse(t.app, url);
      assert.equal(after.status, 200);
      assert.match(after.body, /Heron version two/);
      assert.doesNotMatch(after.body, /Heron version one/);
    });

    it('shows a settings change at once, and hides a site whose visibility changed', async () => {
      const { spaceId } = await publishedSpace('Settings', 'Egret notes.\n');
      const site = await createSite(world.admin, world.organizationId, { title: 'Egret Docs', visibility: 'public', spaces: [spaceId] });
      const url = `${site.root}/guide`;
      assert.match((await warm(url)).body, /Egret Docs/);
      await patchSite(world.admin, world.organizationId, site.id, '', { title: 'Bittern Docs' });
      const renamed = await browse(t.app, url);
      assert.match(renamed.body, /Bittern Docs/);
      assert.doesNotMatch(renamed.body, /Egret Docs/);
      await warm(url);
      await patchSite(world.admin, world.organizationId, site.id, '', { visibility: 'share-link' });
      const hidden = await browse(t.app, url);
      assert.equal(hidden.status, 404, 'a reader without a share key no longer gets the page');
      assert.doesNotMatch(hidden.body, /Egret notes/);
    });

    it('hides a space\'s own address once the space is no longer public', async () => {
      const { spaceId } = await publishedSpace('Own address', 'Plover notes.\n', 'public');
      const url = `/s/${spaceId}/guide`;
      await warm(url);
      const changed = await world.admin.api.patch(`/v1/spaces/${spaceId}`, { visibility: 'private' });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      const hidden = await browse(t.app, url);
      assert.equal(hidden.status, 404);
      assert.doesNotMatch(hidden.body, /Plover/);
    });

    it('keeps a share-link reader\'s page for that reader only, and stops at once when the link is revoked', async () => {
      const { spaceId } = await publishedSpace('Shared', 'Curlew secrets.\n');
      const site = await createSite(world.admin, world.organizationId, { title: 'Curlew Docs', visibility: 'share-link', spaces: [spaceId] });
      const links = `/v1/orgs/${world.organizationId}/sites/${site.id}/share-links`;
      const created = await world.admin.api.post(links, { name: 'Partners' });
      assert.equal(created.status, 201);
      const shareUrl = new URL(created.body.urls.published as string);
      const arrival = await browse(t.app, `${shareUrl.pathname}${shareUrl.search}`);
      assert.equal(arrival.status, 302);
      const cookie = arrival.cookies[0].pair;
      const url = `${site.root}/guide`;
      assert.match((await warm(url, { cookie })).body, /Curlew secrets/);
      const hits = warmPageStats.hits;
      for (const other of [undefined, 'quire_share=not-a-key', `${cookie}x`]) {
        const reply = await browse(t.app, url, other ? { cookie: other } : {});
        assert.equal(reply.status, 404, `another audience (${other ?? 'no cookie'}) never gets the page`);
        assert.doesNotMatch(reply.body, /Curlew/);
      }
      assert.equal(warmPageStats.hits, hits, 'nothing was answered from memory to them');
      // The share key's reader with other cookies of the site's host is the same audience.
      await browse(t.app, url, { cookie: `${cookie}; theme=dark` });
      assert.equal(warmPageStats.hits, hits + 1);
      const deleted = await world.admin.api.delete(`${links}/${created.body.id}`);
      assert.ok(deleted.status === 204 || deleted.status === 205, String(deleted.status));
      const revoked = await browse(t.app, url, { cookie });
      assert.equal(revoked.status, 404, 'a revoked link stops at once');
      assert.doesNotMatch(revoked.body, /Curlew/);
    });

    it('keeps pages apart by the reader\'s claims, and never keeps an answer that sets a cookie', async () => {
      const { spaceId } = await publishedSpace('Claims', 'Godwit notes.\n');
      const site = await createSite(world.admin, world.organizationId, { title: 'Godwit Docs', visibility: 'public', spaces: [spaceId] });
      const url = `${site.root}/guide`;
      await warm(url);
      const hits = warmPageStats.hits;
      const claimed = await browse(t.app, url, { cookie: `quire_claims=${encodeURIComponent(JSON.stringify({ partner: true }))}` });
      assert.equal(claimed.status, 200);
      assert.equal(warmPageStats.hits, hits, 'a reader with claims is not given the page kept for a reader without');
      const arriving = await browse(t.app, `${url}?visitor.partner=true`);
      const again = await browse(t.app, `${url}?visitor.partner=true`);
      assert.ok(arriving.cookies.length > 0 && again.cookies.length > 0, 'claims in the address set their cookie every time');
      assert.equal(warmPageStats.hits, hits);
    });

    it('forgets a page when another process changes what it was made from (PostgreSQL: the notification)', { skip: dialect !== 'postgres' && 'PostgreSQL only (one serving process on SQLite)' }, async () => {
      const { spaceId } = await publishedSpace('Elsewhere', 'Dunlin notes.\n');
      const site = await createSite(world.admin, world.organizationId, { title: 'Dunlin Docs', visibility: 'public', spaces: [spaceId] });
      const url = `${site.root}/guide`;
      await warm(url);
      // Another process: its own connection, without this process's write watcher.
      const other: Database = openDatabase(process.env.TEST_DATABASE_URL!, { schema: t.database.schema });
      try {
        await other.db.updateTable('sites').set({ visibility: 'share-link' }).where('id', '=', site.id).execute();
        let status = 200;
        for (let i = 0; i < 200 && status === 200; i++) {
          status = (await browse(t.app, url)).status;
          if (status === 200) await sleep(10);
        }
        assert.equal(status, 404, 'the page is forgotten once the notice arrives');
        await other.db.updateTable('sites').set({ visibility: 'public' }).where('id', '=', site.id).execute();
        // And shown again once that notice arrives.
        await warm(url);
      } finally {
        await other.close();
      }
    });
  });
}
