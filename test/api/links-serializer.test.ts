import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fastJsonStringify from 'fast-json-stringify';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { LinksListSchema } from '../../src/modules/links/schemas.ts';
import { serializeLinksList } from '../../src/modules/links/serializer.ts';

/** What Fastify's generic serializer (fast-json-stringify of the whole schema, union validated by Ajv) writes. */
const generic = fastJsonStringify(LinksListSchema as Parameters<typeof fastJsonStringify>[0]) as (value: unknown) => string;

for (const dialect of dialects) {
  describe(`link list serializer [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let base: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const other = await createSpace(t.ctx, world.organizationId, { title: 'Other' });
      const space = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      base = `/v1/spaces/${space}`;
      await editContent(t.ctx, space, async (writer) => {
        const logo = await addFile(t.ctx, writer, { name: 'logo.png', contentType: 'image/png', bytes: 'png' });
        writer.addPage({
          type: 'document',
          title: 'Intro',
          markdown: `# Welcome\n\n[install](install.md#options), [missing](missing.md), [up](#welcome), [other](spaces/${other}), [web](https://example.com/a"b), ![logo](files/${logo})\n`,
        });
        writer.addPage({ type: 'document', title: 'Install', markdown: '# Install\n\n## Options\n\n[Back](intro.md)\n' });
      });
    });
    after(() => t.close());

    /** The answer's bytes and its parsed body. */
    async function get(url: string): Promise<{ status: number; text: string; body: any }> {
      const response = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${world.members.read.token}` } });
      return { status: response.statusCode, text: response.body, body: JSON.parse(response.body) };
    }

    it('writes every kind of location exactly as fast-json-stringify of LinksListSchema does', async () => {
      const whole = await get(`${base}/links`);
      assert.equal(whole.status, 200, JSON.stringify(whole.body));
      const kinds = new Set((whole.body.items as Array<{ targetReference: { kind: string } }>).map((item) => item.targetReference.kind));
      assert.deepEqual([...kinds].sort(), ['file', 'page', 'space', 'url']);
      assert.equal(serializeLinksList(whole.body), generic(whole.body));
      assert.equal(whole.text, generic(whole.body), 'the route answers with those bytes');

      const paged = await get(`${base}/links?limit=2`);
      assert.ok(paged.body.next, 'a page with a cursor');
      assert.equal(serializeLinksList(paged.body), generic(paged.body));
      assert.equal(paged.text, generic(paged.body));
    });

    it('leaves out what the schema does not name and refuses a missing required member, as the generic serializer does', async () => {
      const reply = await get(`${base}/links`);
      const padded = structuredClone(reply.body);
      padded.secret = 'x';
      padded.items[0].internal = 1;
      padded.items[0].targetReference.internal = 2;
      padded.items[0].locationReferences[0].page.internal = 3;
      assert.equal(serializeLinksList(padded), generic(reply.body));
    });

    it('writes the members that are unions of scalars (null roles and levels, variables) as the generic serializer does', async () => {
      const reply = await get(`${base}/links`);
      const varied = structuredClone(reply.body);
      for (const item of varied.items) {
        for (const location of [item.targetReference, ...item.locationReferences]) {
          if (location.organization) location.organization.defaultRole = null;
          if (location.space) location.space.defaultLevel = null;
          if (location.page) location.page.variables = { name: 'Quire', count: 3, beta: true, ratio: 0.5 };
        }
      }
      assert.equal(serializeLinksList(varied), generic(varied));
      assert.match(serializeLinksList(varied), /"defaultRole":null/);
      assert.match(serializeLinksList(varied), /"variables":\{"name":"Quire","count":3,"beta":true,"ratio":0.5\}/);
      const missing = structuredClone(reply.body);
      delete missing.count;
      assert.throws(() => generic(missing));
      assert.throws(() => serializeLinksList(missing));
    });
  });
}
