import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jsonDepth, MAX_JSON_DEPTH } from '../../src/http/body-parsing.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { createSite, type SiteHandle } from '../published/support.ts';

/** `{"a":[{"a":[…"x"…]}]}`, `depth` arrays and objects deep, written as text. */
const nested = (depth: number) => {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    open.push(i % 2 === 0 ? '{"a":' : '[');
    close.unshift(i % 2 === 0 ? '}' : ']');
  }
  return `${open.join('')}"x"${close.join('')}`;
};

describe('jsonDepth', () => {
  it('counts arrays and objects, not brackets inside strings, and stops past the limit', () => {
    assert.equal(jsonDepth('{}'), 1);
    assert.equal(jsonDepth('{"a":[1,{"b":[]}]}'), 4);
    assert.equal(jsonDepth('{"a":"[[[[{{{{\\"[[["}'), 1);
    assert.equal(jsonDepth('"\\\\"'), 0);
    assert.equal(jsonDepth(nested(MAX_JSON_DEPTH)), MAX_JSON_DEPTH);
    assert.equal(jsonDepth(nested(100_000)), MAX_JSON_DEPTH + 1);
  });
});

for (const dialect of dialects) {
  describe(`deeply nested JSON bodies [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let site: SiteHandle;
    let siteSpaceId: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Welcome', markdown: 'Hello.' }]);
      site = await createSite(world.admin, world.organizationId, { title: 'Docs', visibility: 'public', spaces: [spaceId] });
      siteSpaceId = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/sites/${site.id}/site-spaces`)).body.items[0].id;
    });
    after(() => t.close());

    const send = async (method: 'PUT' | 'PATCH' | 'POST', url: string, payload: string) => {
      const reply = await t.app.inject({ method, url, headers: { authorization: `Bearer ${world.admin.token}`, 'content-type': 'application/json' }, payload });
      return { status: reply.statusCode, body: reply.json() };
    };

    it('refuses a customization (site and site space) holding a member nested 2,000 or 5,000 deep with 400, before validation, and stores nothing', async () => {
      const base = `/v1/orgs/${world.organizationId}/sites/${site.id}`;
      const before = (await world.admin.api.get(`${base}/customization`)).body;
      for (const depth of [2_000, 5_000]) {
        const full = JSON.stringify(before).replace(/}$/, `,"unknownMember":${nested(depth)}}`);
        for (const [method, url, payload] of [
          ['PUT', `${base}/customization`, full],
          ['PATCH', `${base}/site-spaces/${siteSpaceId}/customization`, `{"footer":{"copyright":"x"},"unknownMember":${nested(depth)}}`],
        ] as const) {
          const reply = await send(method, url, payload);
          assert.equal(reply.status, 400, `${method} ${depth}: ${JSON.stringify(reply.body).slice(0, 300)}`);
          assert.equal(reply.body.error.code, 400);
          assert.match(reply.body.error.message, new RegExp(`more than ${MAX_JSON_DEPTH} deep`));
        }
      }
      const after = (await world.admin.api.get(`${base}/customization`)).body;
      assert.deepEqual(after, before);
      assert.equal('unknownMember' in after, false);
    });

    it('refuses any JSON body nested past the bound with 400 in the error shape, on every kind of operation', async () => {
      const deep = nested(MAX_JSON_DEPTH + 1);
      for (const [method, url] of [
        ['POST', `/v1/orgs/${world.organizationId}/spaces`],
        ['PATCH', `/v1/orgs/${world.organizationId}`],
        ['POST', `/v1/orgs/${world.organizationId}/teams`],
      ] as const) {
        const reply = await send(method, url, `{"title":"x","extra":${deep}}`);
        assert.equal(reply.status, 400, `${method} ${url}: ${JSON.stringify(reply.body).slice(0, 300)}`);
        assert.match(reply.body.error.message, /nests arrays and objects/);
      }
    });

    it('refuses customization members the client\'s document does not name (top level or nested), and takes what GET answers', async () => {
      const base = `/v1/orgs/${world.organizationId}/sites/${site.id}`;
      const current = (await world.admin.api.get(`${base}/customization`)).body;
      const cases: Array<['PUT' | 'PATCH', string, Record<string, unknown>, string]> = [
        ['PUT', `${base}/customization`, { ...current, unknownMember: 1 }, 'unknownMember'],
        ['PUT', `${base}/customization`, { ...current, styling: { ...current.styling, glow: true } }, 'styling.glow'],
        ['PUT', `${base}/customization`, { ...current, header: { ...current.header, links: [{ title: 'A', to: null, links: [], extra: 1 }] } }, 'header.links.0.extra'],
        ['PATCH', `${base}/site-spaces/${siteSpaceId}/customization`, { footer: { copyright: 'x', secret: 'y' } }, 'footer.secret'],
        ['PATCH', `${base}/site-spaces/${siteSpaceId}/customization`, { nested: { a: { b: 1 } } }, 'nested'],
      ];
      for (const [method, url, body, member] of cases) {
        const reply = await send(method, url, JSON.stringify(body));
        assert.equal(reply.status, 400, `${method} ${member}: ${JSON.stringify(reply.body).slice(0, 300)}`);
        assert.match(reply.body.error.message, new RegExp(`member "${member.replace(/\./g, '\\.')}"`));
      }
      assert.deepEqual((await world.admin.api.get(`${base}/customization`)).body, current, 'nothing stored');
      assert.equal((await world.admin.api.put(`${base}/customization`, current)).status, 200, 'what GET answers is taken back');
      const spaceSettings = (await world.admin.api.get(`${base}/site-spaces/${siteSpaceId}/customization`)).body;
      assert.equal((await world.admin.api.patch(`${base}/site-spaces/${siteSpaceId}/customization`, spaceSettings)).status, 200, 'a site space\'s settings are taken back too');
    });
  });
}
