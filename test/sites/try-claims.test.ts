import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createAdaptiveSite } from '../helpers/adaptive-site.ts';
import { importMarkdownInto } from '../helpers/api-suite.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import type { SiteHandle } from '../published/support.ts';
import { conditionalBlockStats } from '../../src/modules/sites/conditional-blocks.ts';

/**
 * "Try claims" inside pages (tryVisitorClaims, decision 0114): for the claims given, each page's adaptive
 * `if` blocks, shown or hidden, evaluated on the server as the reader does; members only.
 */
const PRICING = [
  'Plans for every team.',
  '',
  '{% if visitor.claims.plan == "pro" %}',
  'Call the priority support line.',
  '',
  '{% if visitor.claims.region == "eu" %}',
  'Your data stays in Frankfurt.',
  '{% endif %}',
  '{% endif %}',
  '',
  '{% if visitor.claims.plan != "pro" %}',
  'See the pricing page to upgrade.',
  '{% endif %}',
  '',
  '{% include ".gitbook/includes/notice.md" %}',
  '',
].join('\n');

const NOTICE = ['{% if visitor.claims.beta %}', 'Beta notice: the new dashboard is live.', '{% endif %}', ''].join('\n');

for (const dialect of dialects) {
  describe(`trying visitor claims inside pages [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let site: SiteHandle;
    let pricing: string;
    let spaceId: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      ({ spaceId, site } = await createAdaptiveSite(t, world, { pricing: PRICING, notice: NOTICE }));
      const content = (await world.admin.api.get(`/v1/spaces/${spaceId}/content`)).body.pages as Array<{ id: string; title: string }>;
      pricing = content.find((page) => page.title === 'Pricing')!.id;
    });
    after(async () => {
      await t?.close();
    });

    const path = (claims?: unknown) => `/v1/orgs/${world.organizationId}/sites/${site.id}/try-claims${claims === undefined ? '' : `?claims=${encodeURIComponent(JSON.stringify(claims))}`}`;
    const shown = (body: { pages: Array<{ blocks: Array<{ text: string; shown: boolean }> }> }) =>
      body.pages.flatMap((page) => page.blocks.map((block) => `${block.shown ? '+' : '-'} ${block.text}`));

    it('lists each page with conditional blocks, and which of them the claims show', async () => {
      const pro = await world.admin.api.get(path({ plan: 'pro', region: 'eu', beta: true }));
      assert.equal(pro.status, 200, JSON.stringify(pro.body));
      assert.equal(pro.body.pages.length, 1, 'the plain page has no conditional block');
      assert.equal(pro.body.pages[0].page, pricing);
      assert.equal(pro.body.pages[0].title, 'Pricing');
      assert.equal(pro.body.pages[0].path, 'pricing');
      assert.deepEqual(pro.body.pages[0].blocks.map((block: { condition: string }) => block.condition), ['visitor.claims.plan == "pro"', 'visitor.claims.region == "eu"', 'visitor.claims.plan != "pro"', 'visitor.claims.beta']);
      assert.deepEqual(shown(pro.body), ['+ Call the priority support line.', '+ Your data stays in Frankfurt.', '- See the pricing page to upgrade.', '+ Beta notice: the new dashboard is live.']);

      const free = await world.admin.api.get(path({ plan: 'free', region: 'eu' }));
      assert.deepEqual(shown(free.body), ['- Call the priority support line.', '- Your data stays in Frankfurt.', '+ See the pricing page to upgrade.', '- Beta notice: the new dashboard is live.'], 'a block inside a hidden block is hidden');
      const nobody = await world.admin.api.get(path());
      assert.deepEqual(shown(nobody.body), shown(free.body).map((line) => (line.includes('pricing page') ? line : line.replace('+', '-'))));
    });

    it('reads the pages once per revision: another set of claims only evaluates the blocks again', async () => {
      const first = await world.admin.api.get(path({ plan: 'pro', region: 'eu', beta: true }));
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const parsed = conditionalBlockStats.pagesParsed;
      const other = await world.admin.api.get(path({ plan: 'team', beta: true }));
      assert.deepEqual(shown(other.body), ['- Call the priority support line.', '- Your data stays in Frankfurt.', '+ See the pricing page to upgrade.', '+ Beta notice: the new dashboard is live.']);
      assert.equal(conditionalBlockStats.pagesParsed, parsed, 'no page was read and parsed again for the second set of claims');
    });

    it('is for members of the organization only', async () => {
      for (const [who, user] of cast(world)) {
        const reply = await user.api.get(path({ plan: 'pro' }));
        if (who === 'outsider') assertError(reply, 404);
        else if (who === 'guest') assertError(reply, 403);
        else assert.equal(reply.status, 200, who);
      }
    });

    it('refuses claims that are not a JSON object', async () => {
      assertError(await world.admin.api.get(`/v1/orgs/${world.organizationId}/sites/${site.id}/try-claims?claims=plan`), 400, /JSON/);
      assertError(await world.admin.api.get(path(['pro'])), 400, /object/);
      assertError(await world.admin.api.get(`/v1/orgs/${world.organizationId}/sites/nope/try-claims`), 404);
    });

    it('answers from the new head once a merge changes an if block', async () => {
      const claims = { plan: 'pro', region: 'us' };
      assert.deepEqual(shown((await world.admin.api.get(path(claims))).body).slice(0, 2), ['+ Call the priority support line.', '- Your data stays in Frankfurt.'], 'before the merge');
      const parsed = conditionalBlockStats.pagesParsed;
      const cr = await world.admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'US data' });
      assert.equal(cr.status, 201, JSON.stringify(cr.body));
      const crUrl = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
      const markdown = PRICING.replace('visitor.claims.region == "eu"', 'visitor.claims.region == "us"').replace('Frankfurt', 'Virginia');
      const imported = await importMarkdownInto(world.admin, crUrl, pricing, markdown);
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      const merged = await world.admin.api.post(`${crUrl}/merge`);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      const after = await world.admin.api.get(path(claims));
      assert.equal(after.status, 200, JSON.stringify(after.body));
      assert.deepEqual(after.body.pages[0].blocks.slice(0, 2).map((block: { condition: string }) => block.condition), ['visitor.claims.plan == "pro"', 'visitor.claims.region == "us"']);
      assert.deepEqual(shown(after.body).slice(0, 2), ['+ Call the priority support line.', '+ Your data stays in Virginia.']);
      assert.ok(conditionalBlockStats.pagesParsed > parsed, 'the new head was read');
    });
  });
}
