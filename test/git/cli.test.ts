import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loadConfig, resolveMasterKey } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { getObject } from '../../src/content/objects.ts';
import { findRevision } from '../../src/content/revisions.ts';
import { loadTree, walkPages } from '../../src/content/tree.ts';
import { openDatabase } from '../../src/db/database.ts';
import { createServices } from '../../src/services.ts';
import { createSpace, currentRevision, editContent } from '../helpers/content-factory.ts';
import { createScratchDatabase } from '../helpers/scratch-database.ts';
import { PASSWORD, startGitServer, type GitServer } from './server.ts';
import { needs } from '../helpers/system.ts';

/**
 * `quire git import|export|status` through the real bin/quire, against a real remote over smart HTTP: the
 * operation runs in the foreground, reports its stages, is recorded like the API's, and never prints the
 * credentials.
 */
const QUIRE = join(import.meta.dirname, '..', '..', 'bin', 'quire');
const REPO = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n',
  'install.md': '# Install\n\nRun the installer.\n',
};

const targets: Array<[string, () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>]> = [
  ['sqlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-git-cli-'));
    return { env: { QUIRE_DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }],
];
if (process.env.TEST_DATABASE_URL) {
  targets.push(['postgres', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-git-cli-'));
    const db = await createScratchDatabase('gitcli');
    return {
      env: { QUIRE_DATA_DIR: dir, QUIRE_DATABASE_URL: db.url },
      cleanup: async () => {
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }]);
}

for (const [dialect, setUp] of targets) {
  describe(`quire git [${dialect}]`, { skip: needs('git') }, () => {
    let remote: GitServer;
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    let spaceId: string;
    // Asynchronous: the Git server answering the CLI runs in this process.
    const quire = async (args: string[]) => {
      const child = spawn(QUIRE, args, { env: { ...process.env, QUIRE_LOG_LEVEL: 'debug', QUIRE_IMPORT_ALLOW_PRIVATE: '1', ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.ok(!stdout.includes(PASSWORD) && !stderr.includes(PASSWORD), 'the credentials are never printed, nor logged (at the debug level)');
      return { code, stdout, stderr };
    };
    /** Work on the CLI's database from the test (a space to sync, an edit). */
    async function withDatabase<T>(work: (ctx: ReturnType<typeof createContext>) => Promise<T>): Promise<T> {
      const config = loadConfig({ ...process.env, ...env });
      const database = openDatabase(config.databaseUrl);
      try {
        return await work(createContext(createServices({ config, database, masterKey: resolveMasterKey(config) }), null));
      } finally {
        await database.close();
      }
    }

    before(async () => {
      ({ env, cleanup } = await setUp());
      remote = await startGitServer();
      remote.createRepo('cli', REPO);
      const init = await quire(['init', '--org', 'Acme Docs', '--email', 'ada@acme.test', '--json']);
      assert.equal(init.code, 0, init.stderr);
      const organizationId = JSON.parse(init.stdout).organization as string;
      spaceId = await withDatabase((ctx) => createSpace(ctx, organizationId));
    });
    after(async () => {
      await remote.close();
      await cleanup();
    });

    it('imports a branch in the foreground, stage by stage, and prints the operation with --json', async () => {
      const run = await quire(['git', 'import', '--space', spaceId, '--url', remote.url('cli'), '--ref', 'refs/heads/main', '--json']);
      assert.equal(run.code, 0, run.stderr);
      const operation = JSON.parse(run.stdout);
      assert.deepEqual([operation.direction, operation.state, operation.stage, operation.commit], ['import', 'success', 'finalize', remote.head('cli')]);
      assert.equal(operation.url, remote.url('cli', null));
      assert.deepEqual(run.stderr.trim().split('\n').map((line) => line.split(':')[0]), ['[1/4] repo_fetch', '[2/4] config_check', '[3/4] content_process', '[4/4] finalize']);
      assert.equal(run.stdout.trim().split('\n').length, 1, 'stdout is one JSON object');
    });

    it('exports an edit as one commit with --message, and says when there is nothing to export', async () => {
      const nothing = await quire(['git', 'export', '--space', spaceId, '--url', remote.url('cli'), '--ref', 'refs/heads/main']);
      assert.equal(nothing.code, 0, nothing.stderr);
      assert.match(nothing.stdout, /Nothing to export/);
      assert.equal(remote.log('cli').length, 1, 'no commit');
      await withDatabase(async (ctx) => {
        const revision = (await findRevision(ctx, await currentRevision(ctx, spaceId)))!;
        const page = [...walkPages((await loadTree(ctx, revision.root)).pages)].find((p) => p.node.git?.path === 'install.md')!;
        const markdown = await getObject(ctx, page.node.body!);
        await editContent(ctx, spaceId, (writer) => writer.updatePage(page.node.id, { markdown: markdown.replace('Run the installer.', 'Run the installer from the CLI.') }));
      });
      const before = remote.head('cli');
      const run = await quire(['git', 'export', '--space', spaceId, '--url', remote.url('cli'), '--ref', 'refs/heads/main', '--message', 'Exported from the CLI']);
      assert.equal(run.code, 0, run.stderr);
      const head = remote.head('cli');
      assert.notEqual(head, before);
      assert.match(run.stdout, new RegExp(`commit ${head}`));
      assert.equal(remote.log('cli')[0], `${head} Quire <quire@localhost> | Quire | Exported from the CLI`);
      assert.equal(remote.diff('cli', before, head, '--name-only').trim(), 'install.md');
    });

    it('fails with exit 1 and a clear message on a wrong password, and shows the state with git status', async () => {
      const wrong = await quire(['git', 'import', '--space', spaceId, '--url', remote.url('cli', 'writer:nope-nope'), '--ref', 'refs/heads/main']);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /failed: .*credentials/);
      assert.ok(!wrong.stderr.includes('nope-nope'));
      const status = await quire(['git', 'status', '--space', spaceId, '--json']);
      assert.equal(status.code, 0, status.stderr);
      const printed = JSON.parse(status.stdout);
      assert.equal(printed.lastSync.commit, remote.head('cli'));
      assert.deepEqual(printed.operations.map((o: { direction: string; state: string }) => `${o.direction}:${o.state}`).sort(), ['export:success', 'export:success', 'import:failure', 'import:success']);
      assert.equal(printed.automatic, null);
      const text = await quire(['git', 'status', '--space', spaceId]);
      assert.match(text.stdout, /Last sync: .*refs\/heads\/main at commit/);
      assert.match(text.stdout, /import failure/);
      const usage = await quire(['git', 'pull', '--space', spaceId]);
      assert.equal(usage.code, 2);
      assert.equal((await quire(['git', 'status', '--space', 'nope'])).code, 1);
    });

    it('a served Quire imports a signed push by itself (its own job runner), and its debug log holds no credential or webhook secret', async () => {
      const port = 20000 + Math.floor(Math.random() * 20000);
      const server = spawn(QUIRE, ['serve'], { env: { ...process.env, ...env, PORT: String(port), QUIRE_LOG_LEVEL: 'debug', QUIRE_IMPORT_ALLOW_PRIVATE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let log = '';
      server.stdout.on('data', (chunk) => (log += chunk));
      server.stderr.on('data', (chunk) => (log += chunk));
      try {
        const base = `http://127.0.0.1:${port}`;
        let ready = false;
        for (let i = 0; i < 300 && !ready; i++) {
          ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
          if (!ready) await new Promise((r) => setTimeout(r, 200));
        }
        assert.ok(ready, `serve did not become ready: ${log}`);
        const { token } = JSON.parse((await quire(['token', 'create', '--email', 'ada@acme.test', '--json'])).stdout);
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const put = await fetch(`${base}/v1/spaces/${spaceId}/git/sync`, { method: 'PUT', headers, body: JSON.stringify({ url: remote.url('cli'), ref: 'refs/heads/main', direction: 'both' }) });
        const sync = (await put.json()) as { id: string; webhook: { url: string; secret: string } };
        assert.equal(put.status, 200, JSON.stringify(sync));
        const work = remote.clone('cli');
        writeFileSync(join(work, 'README.md'), '# Welcome\n\nStart here, pushed while Quire serves.\n');
        const pushed = remote.push(work, 'Pushed while serving');
        const body = JSON.stringify({ ref: 'refs/heads/main', after: pushed });
        const signed = (secret: string) => ({ 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` });
        const path = `/v1/git/webhooks/${sync.id}`;
        const refused = await fetch(`${base}${path}`, { method: 'POST', headers: signed('guess'), body });
        assert.equal(refused.status, 403);
        assert.equal(((await refused.json()) as { error: { code: number } }).error.code, 403);
        const accepted = await fetch(`${base}${path}`, { method: 'POST', headers: signed(sync.webhook.secret), body });
        assert.equal(accepted.status, 202);
        let imported = false;
        for (let i = 0; i < 300 && !imported; i++) {
          const operations = (await (await fetch(`${base}/v1/spaces/${spaceId}/git/operations`, { headers })).json()) as { items: Array<{ direction: string; state: string; commit?: string }> };
          imported = operations.items.some((o) => o.direction === 'import' && o.state === 'success' && o.commit === pushed);
          if (!imported) await new Promise((r) => setTimeout(r, 200));
        }
        assert.ok(imported, `the push was not imported: ${log.slice(-2000)}`);
        assert.ok(log.length > 0, 'the server logged');
        assert.ok(!log.includes(PASSWORD), 'no credential in the log');
        assert.ok(!log.includes(sync.webhook.secret), 'no webhook secret in the log');
      } finally {
        server.kill('SIGTERM');
        await new Promise((resolve) => server.once('exit', resolve));
      }
    });
  });
}
