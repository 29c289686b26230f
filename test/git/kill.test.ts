import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { apiOf, runQuire, startQuire, type QuireProcess } from '../scale/cluster.ts';
import { startGitServer, type GitServer } from './server.ts';
import { needs } from '../helpers/system.ts';

/**
 * `kill -9` of a real `bin/quire serve` in the middle of a Git import: the space keeps its content (no
 * partial revision is ever its head, none is left behind), and once the process is started again the
 * operation runs again from the start and succeeds. SQLite in a data folder that survives the restart.
 */
const PAGES = 3000;

function repository(): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# Welcome\n\nThe docs.\n' };
  const summary = ['# Table of contents', '', '* [Welcome](README.md)'];
  for (let n = 0; n < PAGES; n++) {
    const path = `part-${Math.floor(n / 50)}/topic-${n}.md`;
    files[path] = `# Topic ${n}\n\nWhat topic ${n} does, how to set it up, and what to watch for.\n\n* one\n* two\n`;
    summary.push(`* [Topic ${n}](${path})`);
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  return files;
}

describe('a Git import killed with SIGKILL mid-way', { skip: needs('git'), timeout: 300_000 }, () => {
  let remote: GitServer;
  let dataDir: string;
  let env: Record<string, string>;
  let quire: QuireProcess | undefined;
  let token: string;
  let organizationId: string;

  before(async () => {
    remote = await startGitServer();
    remote.createRepo('big', repository());
    dataDir = mkdtempSync(join(tmpdir(), 'quire-git-kill-'));
    env = { QUIRE_DATA_DIR: dataDir, QUIRE_SECRET_KEY: randomBytes(32).toString('hex'), QUIRE_IMPORT_ALLOW_PRIVATE: '1' };
    const init = runQuire(['init', '--org', 'Kill Docs', '--email', 'owner@example.com', '--json'], env);
    assert.equal(init.status, 0, init.stderr);
    ({ token, organization: organizationId } = JSON.parse(init.stdout));
  });
  after(async () => {
    if (quire && quire.child.exitCode === null) quire.child.kill('SIGKILL');
    await quire?.exited;
    await remote.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves the space as it was, then runs the operation again to success after a restart', async () => {
    quire = await startQuire(env);
    let api = apiOf(quire.base, token);
    const space = await api.post(`/v1/orgs/${organizationId}/spaces`, { title: 'Synced' });
    assert.equal(space.status, 201, JSON.stringify(space.body));
    const spaceId = space.body.id;
    const before = (await api.get(`/v1/spaces/${spaceId}`)).body.revision;
    assert.equal((await api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('big'), ref: 'refs/heads/main' })).status, 204);

    // Wait until the operation is under way, then kill the process without a chance to clean up.
    let stage = '';
    for (let i = 0; i < 600 && !['content_process', 'finalize'].includes(stage); i++) {
      const operations = await api.get(`/v1/spaces/${spaceId}/git/operations`);
      const operation = operations.body.items[0];
      assert.notEqual(operation?.state, 'success', `the import finished before it could be killed (raise PAGES)`);
      stage = operation?.state === 'running' ? operation.stage : '';
      if (!stage) await sleep(20);
    }
    assert.ok(stage, 'the import started');
    quire.child.kill('SIGKILL');
    await quire.exited;

    // Dead: the space is as it was, and no revision of the import exists.
    const sqlite = new Database(join(dataDir, 'quire.db'), { readonly: true });
    try {
      const head = sqlite.prepare('select revision_id from spaces where id = ?').get(spaceId) as { revision_id: string };
      assert.equal(head.revision_id, before, 'the space still shows its content from before the import');
      const revisions = sqlite.prepare('select count(*) as n from revisions where space_id = ?').get(spaceId) as { n: number };
      assert.equal(revisions.n, 1, 'no revision of the killed import was written');
      assert.equal((sqlite.prepare('pragma integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
    } finally {
      sqlite.close();
    }
    console.log(`# killed during ${stage}`);

    // Started again: the operation runs again from the start and succeeds.
    quire = await startQuire(env);
    api = apiOf(quire.base, token);
    let state = '';
    for (let i = 0; i < 1200 && state !== 'success' && state !== 'failure'; i++) {
      state = (await api.get(`/v1/spaces/${spaceId}/git/operations`)).body.items[0].state;
      if (state !== 'success') await sleep(100);
    }
    assert.equal(state, 'success');
    const pages = await api.get(`/v1/spaces/${spaceId}/content/pages`);
    assert.equal(pages.status, 200);
    const count = (items: Array<{ pages?: unknown[] }>): number => items.reduce((n, page) => n + 1 + count((page.pages ?? []) as Array<{ pages?: unknown[] }>), 0);
    assert.equal(count(pages.body.pages), PAGES + 1, 'every page of the branch, once');
  });
});
