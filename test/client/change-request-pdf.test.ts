import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI, ImportContentSource } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { pdfPages } from '../helpers/pdf-text.ts';
import { dataUrl } from '../imports/helpers.ts';

/** Through the public client: a change request edited by import, commented on, then printed to a PDF whose text is read back. */
for (const dialect of dialects) {
  describe(`the public client against Quire: a change request printed to PDF [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let endpoint: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      endpoint = await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    after(() => t.close());

    it('prints the change request\'s content, and comments work on it', async () => {
      const admin = new GitBookAPI({ endpoint, authToken: world.admin.token });
      const editor = new GitBookAPI({ endpoint, authToken: world.members.edit.token });
      const commenter = new GitBookAPI({ endpoint, authToken: world.members.comment.token });
      const reader = new GitBookAPI({ endpoint, authToken: world.members.read.token });
      const spaceId = (await admin.orgs.createSpace(world.organizationId, { title: 'Handbook' })).data.id;
      await editor.spaces.importContent(spaceId, { source: ImportContentSource.Markdown, url: dataUrl('text/markdown', '# Welcome\n\nThe handbook starts here.\n') });
      const cr = (await editor.spaces.createChangeRequest(spaceId, { subject: 'Add the release guide' })).data;
      await editor.spaces.importContentInChangeRequest(spaceId, cr.id, {
        source: ImportContentSource.Markdown,
        url: dataUrl('text/markdown', '# Releasing\n\n## Checklist\n\n1. Tag the version.\n2. Publish the notes.\n\n```bash\nnpm publish\n```\n\n| Step | Owner |\n| --- | --- |\n| Tag | Ada |\n'),
      });

      const comment = await commenter.spaces.postCommentInChangeRequest(spaceId, cr.id, { body: { markdown: 'Should we mention the changelog?' } });
      await assert.rejects(reader.spaces.postCommentInChangeRequest(spaceId, cr.id, { body: { markdown: 'Readers cannot post.' } }), /comment/i);
      await editor.spaces.postCommentReplyInChangeRequest(spaceId, cr.id, comment.data.id, { body: { markdown: 'Yes, added.' } });
      const resolved = await commenter.spaces.updateCommentInChangeRequest(spaceId, cr.id, comment.data.id, { resolved: true });
      assert.equal(resolved.data.status, 'resolved');

      const { url } = (await reader.spaces.getChangeRequestPdf(spaceId, cr.id)).data;
      const served = await fetch(String(url).replace('http://quire.test', endpoint));
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'application/pdf');
      const text = (await pdfPages(Buffer.from(await served.arrayBuffer()))).join('\n');
      for (const words of ['Welcome', 'The handbook starts here.', 'Releasing', 'Checklist', 'Tag the version.', 'npm publish', 'Owner', 'Ada']) {
        assert.ok(text.includes(words), `the PDF holds "${words}"`);
      }
    });
  });
}
