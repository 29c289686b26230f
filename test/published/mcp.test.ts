import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { scheduleSpaceIndex } from '../../src/search/changes.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { indexNow } from '../search/support.ts';
import { addSection, createSite, patchSite, visitorToken } from './support.ts';

/**
 * The MCP server of published sites, driven by the official SDK's own client over Streamable HTTP on a
 * real port: a public site is searched and read; a visitor-auth site needs the visitor's token, and shows
 * each visitor only what their claims open (sections, `if` blocks); hidden pages stay hidden.
 */
type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

for (const dialect of dialects) {
  describe(`MCP server of a published site [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let address: string;
    let publicRoot: string;
    let privateRoot: string;
    let key: string;
    const clients: Client[] = [];

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const org = world.organizationId;
      const docs = (
        await createSpaceWithPages(t.ctx, org, [
          { type: 'document', title: 'Welcome', markdown: 'Welcome to the albatross manual.\n' },
          { type: 'document', title: 'Flight plans', markdown: 'Albatross flight plans.\n\n{% if visitor.claims.plan == "pro" %}\nPro pelican secret for albatross owners.\n{% endif %}\n' },
          { type: 'document', title: 'Hidden notes', hidden: true, markdown: 'Hidden albatross notes.\n' },
        ])
      ).spaceId;
      const partners = (await createSpaceWithPages(t.ctx, org, [{ type: 'document', title: 'Partner deals', markdown: 'Albatross partner rebates.\n' }])).spaceId;
      for (const id of [docs, partners]) await scheduleSpaceIndex(t.ctx, id);
      await indexNow(t.ctx);
      const open = await createSite(world.admin, org, { title: 'Albatross Docs', visibility: 'public', spaces: [docs] });
      publicRoot = open.root;
      const closed = await createSite(world.admin, org, { title: 'Albatross Private', visibility: 'visitor-auth', spaces: [docs] });
      privateRoot = closed.root;
      const section = await addSection(world.admin, org, closed.id, partners, 'Partners');
      await patchSite(world.admin, org, closed.id, `/sections/${section.id}`, { condition: 'visitor.claims.partner == true' });
      key = (await world.admin.api.get(`/v1/orgs/${org}/sites/${closed.id}/publishing/auth`)).body.privateKey;
      address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    after(async () => {
      for (const client of clients) await client.close();
      await t.close();
    });

    const connect = async (root: string, token?: string, suffix = '/~mcp') => {
      const client = new Client({ name: 'quire-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${address}${root}${suffix}`), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined);
      await client.connect(transport);
      clients.push(client);
      return client;
    };
    const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
    const textOf = (result: ToolResult) => result.content.map((c) => c.text ?? '').join('\n');

    it('lists its tools, searches and reads a public site', async () => {
      const client = await connect(publicRoot);
      const tools = await client.listTools();
      assert.deepEqual(tools.tools.map((tool) => tool.name).sort(), ['list_pages', 'read_page', 'search']);
      const found = textOf(await call(client, 'search', { query: 'albatross' }));
      assert.match(found, /Flight plans/);
      assert.match(found, /URL: http:\/\/quire\.test\/sites\/[^/]+\/[^/]+\/flight-plans/);
      assert.doesNotMatch(found, /Hidden notes/, 'hidden pages are not found');
      const url = /URL: (\S+\/flight-plans)/.exec(found)![1];
      const page = textOf(await call(client, 'read_page', { url }));
      assert.match(page, /^# Flight plans/);
      assert.doesNotMatch(page, /Pro pelican/, 'an if block for other readers stays out');
      const hidden = await call(client, 'read_page', { url: '/hidden-notes' });
      assert.equal(hidden.isError, true);
      assert.doesNotMatch(textOf(hidden), /Hidden albatross/);
      assert.match(textOf(await call(client, 'list_pages', {})), /\[Welcome\]\(http:\/\/quire\.test\/sites\/.*welcome\.md\)/);
    });

    it('needs the visitor\'s token on a visitor-auth site, and shows each visitor what their claims open', async () => {
      await assert.rejects(connect(privateRoot), /401|signed-in readers/);
      await assert.rejects(connect(privateRoot, 'not-a-token'), /401|signed-in readers/);
      const inAnHour = new Date(t.clock.now().getTime() + 3600_000);
      const basic = await connect(privateRoot, await visitorToken(key, { plan: 'free' }, inAnHour));
      const basicSearch = textOf(await call(basic, 'search', { query: 'albatross' }));
      assert.doesNotMatch(basicSearch, /Partner deals/, 'a section whose condition fails is not searched');
      assert.doesNotMatch(textOf(await call(basic, 'read_page', { url: '/flight-plans' })), /Pro pelican/);
      assert.equal((await call(basic, 'read_page', { url: '/partners/partner-deals' })).isError, true);

      const partner = await connect(privateRoot, await visitorToken(key, { plan: 'pro', partner: true }, inAnHour));
      assert.match(textOf(await call(partner, 'search', { query: 'rebates' })), /Partner deals/);
      assert.match(textOf(await call(partner, 'read_page', { url: '/flight-plans' })), /Pro pelican secret/);
    });

    it('answers at GitBook\'s address of a site\'s MCP server too: {site}/~gitbook/mcp', async () => {
      const client = await connect(publicRoot, undefined, '/~gitbook/mcp');
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name).sort(), ['list_pages', 'read_page', 'search']);
      assert.match(textOf(await call(client, 'search', { query: 'albatross' })), /Flight plans/);
      await assert.rejects(connect(privateRoot, undefined, '/~gitbook/mcp'), /401|signed-in readers/);
      const missing = await fetch(`${address}/sites/${world.organizationId}/nope/~gitbook/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(missing.status, 404);
    });

    it('answers only POST, and a site that does not exist is a 404', async () => {
      const get = await fetch(`${address}${publicRoot}/~mcp`);
      assert.equal(get.status, 405);
      const missing = await fetch(`${address}/sites/${world.organizationId}/nope/~mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(missing.status, 404);
    });
  });
}
