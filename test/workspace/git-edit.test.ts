import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../helpers/app.ts';
import { needs } from '../helpers/system.ts';
import { runJobs } from '../git/helpers.ts';
import { startGitServer, type GitServer } from '../git/server.ts';
import { startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Saving keeps Git clean: a page of a Git-synced space, edited in the browser (Edit, typing in the editor,
 * the change request merged on its review screen), exports as one commit that changes only the edited line.
 * The remote is a real Git repository served over smart HTTP by the test (as test/git does).
 */
const skip = needs('chromium', 'git');

const REPO = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Configure](configure.md)\n',
  'configure.md':
    '---\ndescription: Setting Quire up.\n---\n\n# Configure\n\nSet   the options  (oddly spaced, kept as written).\n\n* one\n* two\n\n{% hint style="info" %}\nRead the [reference](README.md) first.\n{% endhint %}\n\nMore text.\n',
};

for (const dialect of dialects) {
  describe(`a Git-synced page edited in the browser [${dialect}]`, { skip }, () => {
    let h: WorkspaceHarness;
    let remote: GitServer;
    let dataDir = '';
    let spaceId = '';

    const gitOperation = async (direction: 'import' | 'export') => {
      h.t.clock.advance(1000);
      const url = remote.url('docs');
      const reply = await h.world.admin.api.post(`/v1/spaces/${spaceId}/git/${direction}`, { url, ref: 'refs/heads/main', ...(direction === 'export' ? { commitMessage: 'Update from Quire' } : {}) });
      assert.equal(reply.status, 204, JSON.stringify(reply.body));
      await runJobs(h.t.ctx);
      const operation = await h.t.ctx.db.selectFrom('git_operations').selectAll().where('space_id', '=', spaceId).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
      assert.equal(operation.state, 'success', operation.error ?? '');
    };

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'quire-workspace-git-'));
      h = await startWorkspace(dialect, { QUIRE_DATA_DIR: dataDir, QUIRE_IMPORT_ALLOW_PRIVATE: '1' });
      remote = await startGitServer();
      remote.createRepo('docs', REPO);
      spaceId = (await h.world.admin.api.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Synced docs' })).body.id;
      await gitOperation('import');
    });
    after(async () => {
      await h?.close();
      await remote?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('exports as one commit changing only the line typed in the editor', async () => {
      const pages = (await h.world.admin.api.get(`/v1/spaces/${spaceId}/content`)).body.pages as Array<{ id: string; title: string }>;
      const configure = pages.find((page) => page.title === 'Configure')!;
      assert.ok(configure, JSON.stringify(pages));

      const { page, context } = await h.signedIn(h.world.admin);
      await page.goto(`${h.base}/o/${h.world.organizationId}/s/${spaceId}/p/${configure.id}`);
      await page.getByText('More text.').waitFor();
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.waitForURL(/\/cr\/[^/]+\/p\/[^/]+$/);
      const changeRequestId = page.url().split('/cr/')[1].split('/')[0];
      await page.getByRole('textbox', { name: /Body of/ }).getByText('More text.').click();
      await page.keyboard.press('End');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.type(', edited in the browser');
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 20_000 });
      await page.goto(`${h.base}/o/${h.world.organizationId}/s/${spaceId}/cr/${changeRequestId}/review`);
      await page.getByRole('button', { name: 'Merge into the space' }).click();
      await page.waitForURL(new RegExp(`/s/${spaceId}$`));
      await context.close();

      const before = remote.head('docs');
      await gitOperation('export');
      const after = remote.head('docs');
      assert.notEqual(after, before);
      assert.equal(remote.log('docs').length, 2, 'one commit on top of the imported one');
      assert.equal(remote.diff('docs', before, after, '--name-only').trim(), 'configure.md');
      const patch = remote.diff('docs', before, after, '-U0');
      assert.deepEqual(
        patch.split('\n').filter((line) => /^[+-][^+-]/.test(line)),
        ['-More text.', '+More text, edited in the browser.'],
      );
      assert.deepEqual(h.problems, []);
    });
  });
}
