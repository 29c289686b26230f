import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { renderStats } from '../../src/published/cache.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createAdaptiveSite } from '../helpers/adaptive-site.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { browse, type SiteHandle } from './support.ts';

/**
 * Adaptive pages in the reader: each reader sees the branches its claims choose (in the HTML and in the
 * page's Markdown), includes adapt like the page, and readers whose claims decide a page alike share one
 * rendered copy, whatever else their claims hold.
 */
const PRICING = [
  'Plans for every team.',
  '',
  '{% if visitor.claims.unsigned.plan == "pro" %}',
  'Your pro plan includes the priority support line.',
  '{% endif %}',
  '',
  '{% if !visitor.claims.unsigned.plan %}',
  'Compare the plans on the pricing page.',
  '{% endif %}',
  '',
  '{% include ".gitbook/includes/notice.md" %}',
  '',
].join('\n');

const NOTICE = ['{% if visitor.claims.unsigned.plan == "pro" %}', 'Pro notice: the new dashboard is live.', '{% endif %}', ''].join('\n');

for (const dialect of dialects) {
  describe(`adaptive pages in the reader [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let site: SiteHandle;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      ({ site } = await createAdaptiveSite(t, world, { pricing: PRICING, notice: NOTICE }));
    });

    after(async () => {
      await t?.close();
    });

    const get = (path: string, claims: Record<string, string> = {}) => {
      const query = new URLSearchParams(Object.entries(claims).map(([name, value]) => [`visitor.${name}`, value])).toString();
      return browse(t.app, `${site.root}${path}${query ? `?${query}` : ''}`);
    };

    it('shows each reader the branches its claims choose, includes too, and leaves the others out of the HTML', async () => {
      const pro = await get('', { plan: 'pro' });
      assert.equal(pro.status, 200);
      assert.match(pro.body, /priority support line/);
      assert.match(pro.body, /Pro notice: the new dashboard is live/);
      assert.doesNotMatch(pro.body, /pricing page/);

      const free = await get('');
      assert.match(free.body, /pricing page/);
      assert.doesNotMatch(free.body, /priority support line|Pro notice/);
    });

    it('gives the Markdown of a page for the reader, without the branches it does not see', async () => {
      const pro = await get('/pricing.md', { plan: 'pro' });
      assert.equal(pro.status, 200, pro.body);
      assert.match(pro.body, /priority support line/);
      assert.doesNotMatch(pro.body, /pricing page|visitor\.claims/);
      const free = await get('/pricing.md');
      assert.doesNotMatch(free.body, /priority support line/);
    });

    it('renders a page once for all readers its expressions treat alike', async () => {
      await get('', { plan: 'pro', user: 'ann' });
      const rendered = renderStats.rendered;
      const bob = await get('', { plan: 'pro', user: 'bob' });
      const carol = await get('', { plan: 'pro', user: 'carol', team: 'blue' });
      assert.equal(renderStats.rendered, rendered, 'readers with other claims but the same plan share the page');
      assert.equal(bob.body, carol.body);
      await get('', { plan: 'team', user: 'dan' });
      assert.equal(renderStats.rendered, rendered + 1, 'another plan is another page');

      await get('/plain');
      const plain = renderStats.rendered;
      await get('/plain', { plan: 'pro', user: 'erin' });
      await get('/plain', { user: 'frank' });
      assert.equal(renderStats.rendered, plain, 'a page without expressions is made once for everyone');
    });
  });
}
