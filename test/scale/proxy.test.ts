import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiOf, runQuire, startQuire, type QuireProcess } from './cluster.ts';
import { needs, nginxPath } from '../helpers/system.ts';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.ts';

/**
 * The nginx configuration that docs/operations.md gives, exercised as written: the test takes the ```nginx
 * block out of the document, points its upstreams at two real `bin/quire serve` processes on one PostgreSQL
 * database and its `listen` at a free port, and runs Debian's nginx with it (.ci/run installs nginx-light).
 * Requests reach both processes, the API and the published reader answer through the proxy, the body limit
 * holds, /metrics is closed, and a process that stops (or drains: /readyz 503) is skipped without a failed
 * request. PostgreSQL only, as several processes need it.
 */
const skip = !process.env.TEST_DATABASE_URL ? 'needs TEST_DATABASE_URL' : needs('nginx');
const NGINX = nginxPath() ?? '/usr/sbin/nginx';

function documentedConfig(): string {
  const doc = readFileSync(join(import.meta.dirname, '../../docs/operations.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc);
  assert.ok(block, 'docs/operations.md has an nginx example');
  return block[1];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the documented nginx configuration in front of two processes', { skip, timeout: 300_000 }, () => {
  let database: ScratchDatabase | undefined;
  let processes: QuireProcess[] = [];
  let nginx: ChildProcess | undefined;
  let folder: string;
  let proxy: string;
  let token: string;
  let organizationId: string;
  /** Requests a process logged (Fastify's "incoming request" lines name the URL) for a path. */
  const served = (p: QuireProcess, path: string) => p.log.filter((line) => line.includes('"incoming request"') && line.includes(path)).length;

  before(async () => {
    database = await createScratchDatabase('proxy');
    const port = await freePort();
    proxy = `http://127.0.0.1:${port}`;
    // No rate limit: the drain test sends one token's requests back to back for 1-4 s, past the default 1,200 a
    // minute on a quiet machine (429s would read as requests lost to the drain); the limits have their own tests.
    const env = { QUIRE_DATABASE_URL: database.url, QUIRE_SECRET_KEY: randomBytes(32).toString('hex'), QUIRE_PUBLIC_URL: proxy, QUIRE_DRAIN_SECONDS: '3', QUIRE_RATE_LIMIT: '0' };
    const init = runQuire(['init', '--org', 'Proxy Docs', '--email', 'owner@example.com', '--json'], env);
    assert.equal(init.status, 0, init.stderr);
    ({ token, organization: organizationId } = JSON.parse(init.stdout));
    processes = await Promise.all([startQuire(env), startQuire(env)]);

    // The documented server block, as written, with its upstreams and port made real.
    const ports = processes.map((p) => new URL(p.base).port);
    let site = documentedConfig();
    const upstreams = [...site.matchAll(/server 127\.0\.0\.1:(\d+)/g)];
    assert.ok(upstreams.length >= 2, 'the example names several processes');
    site = site.replace(/\n\s*server 127\.0\.0\.1:\d+[^\n]*/g, '');
    site = site.replace(/upstream quire \{/, `upstream quire {\n${ports.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n')}`);
    site = site.replace(/listen 80;/, `listen 127.0.0.1:${port};`);
    folder = mkdtempSync(join(tmpdir(), 'quire-nginx-'));
    chmodSync(folder, 0o777);
    const temp = (name: string) => `${name} ${join(folder, name.replace(/_path$/, ''))};`;
    writeFileSync(
      join(folder, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${join(folder, 'nginx.pid')};`,
        `error_log ${join(folder, 'error.log')} warn;`,
        ...(process.getuid?.() === 0 ? ['user root;'] : []),
        'events { worker_connections 256; }',
        'http {',
        `  access_log ${join(folder, 'access.log')};`,
        `  ${temp('client_body_temp_path')} ${temp('proxy_temp_path')} ${temp('fastcgi_temp_path')} ${temp('uwsgi_temp_path')} ${temp('scgi_temp_path')}`,
        site,
        '}',
      ].join('\n'),
    );
    const check = spawnSync(NGINX, ['-t', '-c', join(folder, 'nginx.conf'), '-e', join(folder, 'error.log')], { encoding: 'utf8' });
    assert.equal(check.status, 0, `nginx -t: ${check.stderr}`);
    nginx = spawn(NGINX, ['-c', join(folder, 'nginx.conf'), '-e', join(folder, 'error.log')], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${proxy}/healthz`).then((r) => r.ok, () => false)) break;
      await sleep(100);
    }
  });

  after(async () => {
    nginx?.kill('SIGQUIT');
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await database?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('answers the API and the reader through the proxy, from both processes', async () => {
    const api = apiOf(proxy, token);
    const space = await api.post(`/v1/orgs/${organizationId}/spaces`, { title: 'Behind nginx' });
    assert.equal(space.status, 201, JSON.stringify(space.body));
    assert.ok(String(space.body.urls.location).startsWith(proxy), 'URLs name the proxy (QUIRE_PUBLIC_URL)');
    for (let i = 0; i < 20; i++) assert.equal((await api.get(`/v1/spaces/${space.body.id}`)).status, 200);
    const counts = processes.map((p) => served(p, `/v1/spaces/${space.body.id}`));
    assert.ok(counts.every((n) => n > 0), `both processes served requests (${counts.join(' / ')})`);
    // A body of 5 MB passes the proxy and is judged by Quire (a title that long is refused in the error shape).
    const large = await api.post(`/v1/orgs/${organizationId}/spaces`, { title: 'x'.repeat(5 * 1024 * 1024) });
    assert.equal(large.status, 400, JSON.stringify(large.body).slice(0, 200));
    assert.equal(typeof large.body.error.message, 'string');
    const tooBig = await fetch(`${proxy}/v1/spaces/${space.body.id}/content/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: 'x'.repeat(11 * 1024 * 1024) });
    assert.equal(tooBig.status, 413, 'client_max_body_size stops a body over the limit at the proxy');
    assert.equal((await fetch(`${proxy}/metrics`)).status, 403, '/metrics is closed at the proxy');
  });

  it('skips a process that drains or stops, without a failed request', async () => {
    const api = apiOf(proxy, token);
    const failures: string[] = [];
    let sent = 0;
    let stop = false;
    const load = (async () => {
      while (!stop) {
        sent++;
        const reply = await api.get(`/v1/orgs/${organizationId}`).catch((error: unknown) => ({ status: 0, body: String(error) }));
        if (reply.status !== 200) failures.push(`${reply.status} ${JSON.stringify(reply.body)}`);
      }
    })();
    await sleep(300);
    processes[1].child.kill('SIGTERM');
    assert.equal(await processes[1].exited, 0, 'the process shut down cleanly');
    await sleep(500);
    stop = true;
    await load;
    assert.deepEqual(failures, [], `${failures.length} of ${sent} requests failed while a process drained and stopped`);
    assert.ok(sent > 20);
  });
});
