import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findRevision } from '../../src/content/revisions.ts';
import { loadTree } from '../../src/content/tree.ts';
import { renderPdf } from '../../src/pdf/render.ts';
import { loadPdfInput, selectPages } from '../../src/pdf/source.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages, currentRevision, editContent } from '../helpers/content-factory.ts';
import { createWorld } from '../helpers/factories.ts';
import { pdfPages } from '../helpers/pdf-text.ts';

/**
 * GitBook's blocks in a real PDF, read back with pdf.js: steps numbered, columns one after the other,
 * includes expanded, every `if` branch printed with the readers it is shown to, buttons as their labels.
 */
const PAGE = [
  'Before the steps.',
  '',
  '{% stepper %}',
  '{% step %}',
  '#### Create your account',
  '',
  'Sign up with your work address.',
  '{% endstep %}',
  '',
  '{% step %}',
  '#### Invite your team',
  '',
  'Send the invitations.',
  '{% endstep %}',
  '{% endstepper %}',
  '',
  '{% columns %}',
  '{% column %}',
  'Left column text.',
  '{% endcolumn %}',
  '',
  '{% column %}',
  'Right column text. <a href="https://example.com/start" class="button primary">Start now</a>',
  '{% endcolumn %}',
  '{% endcolumns %}',
  '',
  '{% include ".gitbook/includes/support.md" %}',
  '',
  '{% if visitor.claims.unsigned.plan == "pro" %}',
  'Call the priority support line.',
  '{% endif %}',
  '',
].join('\n');

for (const dialect of dialects) {
  describe(`PDF of GitBook blocks [${dialect}]`, () => {
    let t: TestApp;
    let spaceId: string;

    before(async () => {
      t = await createTestApp(dialect);
      const world = await createWorld(t.ctx, t.app);
      spaceId = (await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Onboarding', markdown: PAGE }], { title: 'Handbook' })).spaceId;
      await editContent(t.ctx, spaceId, (writer) => {
        writer.putReusableContent({ id: 'support', title: 'Support', markdown: 'Write to the support desk at any hour.\n' });
      });
    });
    after(() => t.close());

    it('prints steps, columns, includes, buttons and every if branch, in reading order', async () => {
      const revision = await findRevision(t.ctx, await currentRevision(t.ctx, spaceId));
      const tree = await loadTree(t.ctx, revision!.root);
      const input = await loadPdfInput(t.ctx, tree, selectPages(tree, { only: false }), { spaceId, title: 'Handbook', createdAt: new Date('2026-11-24T00:00:00Z') });
      const text = (await pdfPages(await renderPdf(input))).join(' ');
      const order = [
        'Before the steps.',
        'Step 1',
        'Create your account',
        'Sign up with your work address.',
        'Step 2',
        'Invite your team',
        'Left column text.',
        'Right column text.',
        'Start now',
        'Write to the support desk at any hour.',
        'Shown to readers when: visitor.claims.unsigned.plan == "pro"',
        'Call the priority support line.',
      ];
      let from = 0;
      for (const needle of order) {
        const at = text.indexOf(needle, from);
        assert.ok(at >= 0, `"${needle}" after ${from} in: ${text}`);
        from = at + needle.length;
      }
      assert.doesNotMatch(text, /\{%|Reusable content/);
    });
  });
}
