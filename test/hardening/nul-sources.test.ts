import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, createSpaceWithPages, currentRevision } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { createGitTestApp, lastOperation, runJobs } from '../git/helpers.ts';
import { startGitServer, type GitServer } from '../git/server.ts';
import { buildZip, dataUrl } from '../imports/helpers.ts';
import { needs } from '../helpers/system.ts';

/**
 * A NUL anywhere in a source text is refused, not only near its start (where it reads as a binary file):
 * PostgreSQL cannot store it in text and SQLite would keep it. Each source is tried with the NUL after
 * 9,000 characters of ordinary text.
 */
const late = (before: string, after = '\nmore\n') => `${before}${'Some text of the page.\n'.repeat(400)}x\u0000y${after}`;

for (const dialect of dialects) {
  describe(`NUL in source texts [${dialect}]`, { skip: needs('git') }, () => {
    let t: TestApp & { dataDir: string };
    let world: World;
    let remote: GitServer;
    before(async () => {
      t = await createGitTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      remote = await startGitServer();
    });
    after(async () => {
      await remote.close();
      await t.close();
    });

    const sources: Array<[string, string, () => string]> = [
      ['a Markdown file', 'markdown', () => dataUrl('text/markdown', late('# Page\n\n'))],
      ['a zip entry', 'zip', () => dataUrl('application/zip', buildZip([{ name: 'README.md', data: '# Top\n' }, { name: 'late.md', data: late('# Late\n\n') }]))],
      ['a zip SUMMARY.md', 'zip', () => dataUrl('application/zip', buildZip([{ name: 'README.md', data: '# Top\n' }, { name: 'SUMMARY.md', data: late('# Summary\n\n* [Top](README.md)\n') }]))],
      ['a .gitbook.yaml in a zip', 'zip', () => dataUrl('application/zip', buildZip([{ name: 'README.md', data: '# Top\n' }, { name: '.gitbook.yaml', data: late('root: ./\n# ') }]))],
      ['an HTML page', 'html', () => dataUrl('text/html', late('<html><body><p>', '</p></body></html>'))],
    ];
    for (const [what, source, url] of sources) {
      it(`refuses ${what} holding a NUL after 9,000 characters with 400, and changes nothing`, async () => {
        const { spaceId, revisionId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Kept', markdown: 'Kept.' }]);
        const reply = await world.members.edit.api.post(`/v1/spaces/${spaceId}/content/import`, { source, url: url() });
        assertError(reply, 400, 'NUL character (line ');
        assert.equal(await currentRevision(t.ctx, spaceId), revisionId);
      });
    }

    it('fails a Git import whose file holds a NUL late, saying which file and line, and changes nothing', async () => {
      remote.createRepo('nul', { 'README.md': '# Top\n', 'late.md': late('# Late\n\n') });
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const revisionId = await currentRevision(t.ctx, spaceId);
      const reply = await world.members.edit.api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('nul'), ref: 'refs/heads/main' });
      assert.equal(reply.status, 204, JSON.stringify(reply.body));
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.equal(operation.state, 'failure');
      assert.match(operation.error ?? '', /"late\.md" holds a NUL character \(line 403\)/);
      assert.equal(await currentRevision(t.ctx, spaceId), revisionId);
    });
  });
}
