import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { buildZip, dataUrl, PNG } from '../imports/helpers.ts';
import { apiOf, runQuire, startQuire, type QuireProcess } from './cluster.ts';
import { startLocalS3, type LocalS3 } from './s3-server.ts';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.ts';

/**
 * Three real `bin/quire serve` processes on one PostgreSQL database and one S3 bucket, driven together:
 * what one writes the others serve, files uploaded through one are downloaded through another, concurrent
 * writes to one space lose nothing, every job runs once, and a new revision shows on every process's
 * published pages at once. PostgreSQL only (TEST_DATABASE_URL): several processes on SQLite are not supported.
 */
describe('three processes on one PostgreSQL database and one S3 bucket', { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL', timeout: 600_000 }, () => {
  let s3: LocalS3;
  let databaseUrl: string;
  let database: ScratchDatabase | undefined;
  let processes: QuireProcess[] = [];
  let token: string;
  let organizationId: string;
  let env: Record<string, string>;
  const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const api = (i: number) => apiOf(processes[i].base, token);

  before(async () => {
    database = await createScratchDatabase('mp');
    databaseUrl = database.url;
    s3 = await startLocalS3();
    env = {
      QUIRE_DATABASE_URL: databaseUrl,
      QUIRE_BLOB_URL: s3.blobUrl('cluster'),
      QUIRE_SECRET_KEY: randomBytes(32).toString('hex'),
      QUIRE_TOKEN_CACHE_SECONDS: '1',
      QUIRE_IMPORT_ALLOW_PRIVATE: '1',
      QUIRE_PUBLIC_URL: 'http://docs.example.test',
      ...s3.env,
    };
    const init = runQuire(['init', '--org', 'Acme Docs', '--email', 'owner@example.com', '--json'], env);
    assert.equal(init.status, 0, init.stderr);
    ({ token, organization: organizationId } = JSON.parse(init.stdout));
    processes = await Promise.all([startQuire(env), startQuire(env), startQuire(env)]);
  });

  after(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await s3?.close();
    await database?.drop();
  });

  let spaceId: string;
  const pageIds: Record<string, string> = {};

  it('serves what one process wrote from every process, and files from the shared bucket', async () => {
    for (let i = 0; i < 3; i++) {
      assert.equal((await fetch(`${processes[i].base}/readyz`)).status, 200);
      assert.equal((await api(i).get(`/v1/orgs/${organizationId}`)).status, 200);
    }
    const created = await api(0).post(`/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    spaceId = created.body.id;
    for (let i = 1; i < 3; i++) assert.equal((await api(i).get(`/v1/spaces/${spaceId}`)).body.title, 'Handbook');

    const zip = buildZip([
      { name: 'SUMMARY.md', data: '# Summary\n\n* [Welcome](README.md)\n* [Alpha](alpha.md)\n* [Beta](beta.md)\n* [Gamma](gamma.md)\n' },
      { name: 'README.md', data: '# Welcome\n\nFirst edition of the handbook.\n\n![logo](logo.png)\n' },
      { name: 'alpha.md', data: '# Alpha\n\nOriginal alpha.\n' },
      { name: 'beta.md', data: '# Beta\n\nOriginal beta.\n' },
      { name: 'gamma.md', data: '# Gamma\n\nOriginal gamma.\n' },
      { name: 'logo.png', data: PNG },
    ]);
    const imported = await api(1).post(`/v1/spaces/${spaceId}/content/import`, { source: 'zip', url: dataUrl('application/zip', zip) });
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    const pages = await api(2).get(`/v1/spaces/${spaceId}/content/pages`);
    assert.equal(pages.status, 200);
    for (const page of pages.body.pages) pageIds[page.title] = page.id;
    assert.deepEqual(Object.keys(pageIds), ['Welcome', 'Alpha', 'Beta', 'Gamma']);

    const files = await api(0).get(`/v1/spaces/${spaceId}/content/files`);
    const download = new URL(files.body.items[0].downloadURL);
    for (let i = 0; i < 3; i++) {
      const response = await fetch(processes[i].base + download.pathname + download.search);
      assert.equal(response.status, 200);
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(PNG), `process ${i} serves the file's bytes`);
    }
  });

  it('loses no update when the three processes write to one space at once', async () => {
    const write = async (i: number, title: string) => {
      for (let attempt = 0; attempt < 10; attempt++) {
        const reply = await api(i).post(`/v1/spaces/${spaceId}/content/page/${pageIds[title]}/import`, { source: 'markdown', url: dataUrl('text/markdown', `# ${title}\n\n${title} written by process ${i}.\n`) });
        if (reply.status === 201) return;
        assert.equal(reply.status, 409, JSON.stringify(reply.body)); // a conflict is reported, never swallowed; try again
      }
      assert.fail(`process ${i} could not write ${title}`);
    };
    await Promise.all([write(0, 'Alpha'), write(1, 'Beta'), write(2, 'Gamma')]);
    for (let i = 0; i < 3; i++) {
      for (const [title, writer] of [['Alpha', 0], ['Beta', 1], ['Gamma', 2]] as const) {
        const page = await api(i).get(`/v1/spaces/${spaceId}/content/page/${pageIds[title]}?format=markdown`);
        assert.equal(page.status, 200);
        assert.match(page.body.markdown, new RegExp(`${title} written by process ${writer}`), `process ${i} sees ${title}`);
      }
    }
  });

  it('shows a new revision on every process\'s published pages at once', async () => {
    const site = await api(0).post(`/v1/orgs/${organizationId}/sites`, { title: 'Handbook site', visibility: 'public', spaces: [spaceId] });
    assert.equal(site.status, 201, JSON.stringify(site.body));
    assert.equal((await api(0).post(`/v1/orgs/${organizationId}/sites/${site.body.id}/publish`)).status, 200);
    const root = new URL((await api(0).get(`/v1/orgs/${organizationId}/sites/${site.body.id}`)).body.urls.published).pathname;
    for (let i = 0; i < 3; i++) {
      const html = await (await fetch(processes[i].base + root)).text();
      assert.match(html, /First edition of the handbook/, `process ${i} renders the page`);
    }
    const edit = await api(1).post(`/v1/spaces/${spaceId}/content/page/${pageIds.Welcome}/import`, { source: 'markdown', url: dataUrl('text/markdown', '# Welcome\n\nSecond edition of the handbook.\n') });
    assert.equal(edit.status, 201, JSON.stringify(edit.body));
    for (let i = 0; i < 3; i++) {
      const html = await (await fetch(processes[i].base + root)).text();
      assert.match(html, /Second edition of the handbook/, `process ${i} shows the new revision at once`);
    }
  });

  it('runs every job exactly once, spread over the processes, and searches the same everywhere', async () => {
    // More work for the queue: five more spaces, each written once (each write enqueues its indexing).
    for (let n = 0; n < 5; n++) {
      const created = await api(n % 3).post(`/v1/orgs/${organizationId}/spaces`, { title: `Space ${n}` });
      const reply = await api((n + 1) % 3).post(`/v1/spaces/${created.body.id}/content/import`, { source: 'markdown', url: dataUrl('text/markdown', `# Notes ${n}\n\nThe quokka number ${n}.\n`) });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
    }
    let open: Array<{ n: number }> = [];
    for (let wait = 0; wait < 120; wait++) {
      open = await query<{ n: number }>(`select count(*)::int as n from jobs where status in ('pending', 'running') and run_at <= $1`, [new Date().toISOString()]);
      if (open[0].n === 0) break;
      await sleep(250);
    }
    assert.equal(open[0].n, 0, 'the queue drains');
    // Jobs due now (the daily audit-log pruning waits for its day, scheduled by each process at start).
    const jobs = await query<{ status: string; attempts: number; kind: string }>(`select status, attempts, kind from jobs where run_at <= $1`, [new Date().toISOString()]);
    assert.ok(jobs.length >= 6, `jobs ran: ${jobs.length}`);
    for (const job of jobs) assert.deepEqual([job.status, job.attempts], ['done', 1], `${job.kind} ran once and succeeded`);

    let done = 0;
    for (let i = 0; i < 3; i++) {
      const text = await (await fetch(`${processes[i].base}/metrics`)).text();
      for (const match of text.matchAll(/^quire_jobs_total\{kind="[^"]+",outcome="done"\} (\d+)$/gm)) done += Number(match[1]);
    }
    assert.equal(done, jobs.length, 'the processes together ran each job once');

    for (let i = 0; i < 3; i++) {
      const found = await api(i).get(`/v1/orgs/${organizationId}/search?query=quokka`);
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.equal(found.body.items.length, 5, `process ${i} finds the five spaces`);
    }
  });

  it('refuses a revoked token on every process once its cache time (1 s here) has passed', async () => {
    const created = runQuire(['token', 'create', '--email', 'reader@example.com', '--json'], env);
    assert.equal(created.status, 0, created.stderr);
    const second = JSON.parse(created.stdout).token as string;
    for (let i = 0; i < 3; i++) assert.equal((await apiOf(processes[i].base, second).get('/v1/user')).status, 200);
    await query(`delete from api_tokens where user_id = (select id from users where email = 'reader@example.com')`);
    await sleep(1100);
    for (let i = 0; i < 3; i++) assert.equal((await apiOf(processes[i].base, second).get('/v1/user')).status, 401, `process ${i}`);
  });

  it('stops every process cleanly on SIGTERM', async () => {
    for (const p of processes) p.child.kill('SIGTERM');
    const codes = await Promise.all(processes.map((p) => p.exited));
    assert.deepEqual(codes, [0, 0, 0], processes.map((p) => p.log.slice(-5).join('\n')).join('\n---\n'));
  });
});
