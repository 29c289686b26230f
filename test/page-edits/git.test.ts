import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type TestApp } from '../helpers/app.ts';
import { createSpace } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { gitbookFixtureRepo } from '../git/fixture-repo.ts';
import { createGitTestApp, lastOperation, runJobs } from '../git/helpers.ts';
import { startGitServer, type GitServer } from '../git/server.ts';
import { needs } from '../helpers/system.ts';

const skip = needs('git');

interface Page {
  id: string;
  title: string;
  type: string;
  git?: { path: string };
  pages?: Page[];
}
const flatten = (pages: Page[]): Page[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

const REF = 'refs/heads/main';

/**
 * Saving keeps Git clean: a page of a Git-synced space, imported from GitBook's Markdown, edited through the
 * page-editing API in a change request and merged, is exported as one commit that changes only the edited
 * line of its file.
 */
for (const dialect of dialects) {
  describe(`page edits and Git Sync [${dialect}]`, { skip }, () => {
    let t: TestApp;
    let world: World;
    let remote: GitServer;
    const admin = () => world.admin.api;

    before(async () => {
      t = await createGitTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      remote = await startGitServer();
    });
    after(async () => {
      await t.close();
      await remote.close();
    });

    it('exports an edit of one paragraph, made through PATCH in a change request and merged, as a one-line commit', async () => {
      remote.createRepo('docs', gitbookFixtureRepo());
      const spaceId = await createSpace(t.ctx, world.organizationId);
      t.clock.advance(1000);
      assert.equal((await admin().post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('docs'), ref: REF })).status, 204);
      await runJobs(t.ctx);
      assert.equal((await lastOperation(t.ctx, spaceId)).state, 'success');
      const sync = await admin().put(`/v1/spaces/${spaceId}/git/sync`, { url: remote.url('docs'), ref: REF, direction: 'both' });
      assert.equal(sync.status, 200, JSON.stringify(sync.body));
      const before = remote.head('docs');

      const tree = flatten((await admin().get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Page[]);
      const page = tree.find((p) => p.git?.path.endsWith('beefree-other-customizations-appearance-themes.md'))!;
      assert.ok(page, 'the themes page of the fixtures');
      const cr = (await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Clarify themes' })).body;
      const url = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${page.id}`;
      const read = (await world.members.edit.api.get(url)).body;
      const document = read.document;
      const index = document.nodes.findIndex((node: { type: string }) => node.type === 'paragraph');
      document.nodes[index].nodes.push({ object: 'text', leaves: [{ object: 'leaf', text: ' (edited)', marks: [] }] });
      const saved = await world.members.edit.api.patch(url, { document, baseRevision: cr.revision });
      assert.equal(saved.status, 200, JSON.stringify(saved.body).slice(0, 500));
      assert.equal(remote.head('docs'), before, 'a change request is not exported');

      t.clock.advance(1000);
      const merged = await admin().post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.deepEqual([operation.direction, operation.state], ['export', 'success'], operation.error ?? '');
      const head = remote.head('docs');
      assert.notEqual(head, before);
      assert.equal(remote.log('docs').length, 2, 'one commit');
      const numstat = remote.diff('docs', before, head, '--numstat').trim();
      assert.match(numstat, /^1\t1\tdocs\/real\/.*beefree-other-customizations-appearance-themes\.md$/, numstat);
      const diff = remote.diff('docs', before, head, '-U0');
      const changed = diff.split('\n').filter((line) => /^[-+][^-+]/.test(line));
      assert.equal(changed.length, 2, diff);
      assert.ok(changed[1].endsWith('(edited)'), diff);

      // A live edit of the space (its editMode is "live") is exported by itself, one line again.
      const live = `/v1/spaces/${spaceId}/content/page/${page.id}`;
      const current = (await admin().get(live)).body.document;
      const last = current.nodes.map((node: { type: string }) => node.type).lastIndexOf('paragraph');
      current.nodes[last].nodes.push({ object: 'text', leaves: [{ object: 'leaf', text: ' (live)', marks: [] }] });
      const space = (await admin().get(`/v1/spaces/${spaceId}`)).body;
      t.clock.advance(1000);
      const livePatch = await world.members.edit.api.patch(live, { document: current, baseRevision: space.revision });
      assert.equal(livePatch.status, 200, JSON.stringify(livePatch.body).slice(0, 500));
      await runJobs(t.ctx);
      const exported = await lastOperation(t.ctx, spaceId);
      assert.deepEqual([exported.direction, exported.state], ['export', 'success'], exported.error ?? '');
      assert.equal(remote.log('docs').length, 3);
      const liveDiff = remote.diff('docs', head, remote.head('docs'), '-U0');
      const liveLines = liveDiff.split('\n').filter((line) => /^[-+][^-+]/.test(line));
      assert.equal(liveLines.length, 2, liveDiff);
      assert.ok(liveLines[1].endsWith('(live)'), liveDiff);
    });

    it('keeps a page\'s `icon:` front matter byte for byte through a Git round trip, and writes a changed icon as one line', async () => {
      const guide = '---\ndescription: How to set it up\nicon: gear\n---\n\n# Setup\n\nOpen the settings.\n';
      remote.createRepo('icons', {
        'README.md': '# Welcome\n\nStart here.\n',
        'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Setup](setup.md)\n',
        'setup.md': guide,
      });
      const spaceId = await createSpace(t.ctx, world.organizationId);
      t.clock.advance(1000);
      assert.equal((await admin().post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('icons'), ref: REF })).status, 204);
      await runJobs(t.ctx);
      assert.equal((await lastOperation(t.ctx, spaceId)).state, 'success');
      assert.equal((await admin().put(`/v1/spaces/${spaceId}/git/sync`, { url: remote.url('icons'), ref: REF, direction: 'both' })).status, 200);
      const tree = flatten((await admin().get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Page[]);
      const setup = tree.find((p) => p.title === 'Setup')!;
      const welcome = tree.find((p) => p.title === 'Welcome')!;
      assert.equal((await admin().get(`/v1/spaces/${spaceId}/content/page/${setup.id}`)).body.icon, 'gear');

      // Another page edited and exported: the icon's file is left exactly as it was.
      const start = remote.head('icons');
      const cr = (await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Welcome' })).body;
      assert.equal((await world.members.edit.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${welcome.id}`, { title: 'Hello' })).status, 200);
      t.clock.advance(1000);
      assert.equal((await admin().post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status, 200);
      await runJobs(t.ctx);
      assert.notEqual(remote.head('icons'), start);
      assert.equal(remote.files('icons').get('setup.md')?.toString('utf8'), guide);

      // The icon changed through the API: one line of the file.
      const before = remote.head('icons');
      const second = (await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Icon' })).body;
      assert.equal((await world.members.edit.api.patch(`/v1/spaces/${spaceId}/change-requests/${second.id}/content/page/${setup.id}`, { icon: 'wrench' })).status, 200);
      t.clock.advance(1000);
      assert.equal((await admin().post(`/v1/spaces/${spaceId}/change-requests/${second.id}/merge`)).status, 200);
      await runJobs(t.ctx);
      assert.equal(remote.files('icons').get('setup.md')?.toString('utf8'), guide.replace('icon: gear', 'icon: wrench'));
      const changed = remote.diff('icons', before, remote.head('icons'), '-U0').split('\n').filter((line) => /^[-+][^-+]/.test(line));
      assert.deepEqual(changed, ['-icon: gear', '+icon: wrench']);
    });
  });
}
