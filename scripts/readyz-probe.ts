/**
 * `node --import tsx scripts/readyz-probe.ts [--database postgres://…] [--case NAME]… [--runs N] [--entries N]`: the
 * worst `/readyz` delay while one large or hostile request runs, for the cases of issue 24 that held the event loop:
 *
 * - `zip-summary`: a zip import whose SUMMARY.md lists 50,000 entries (--entries), each naming a file of its own:
 *   a path named twice is one page and link pages to it (decision 0111), and the case is about 50,000 pages. An
 *   archive holds at most 10,000 entries, so it carries the first 9,999 files; Quire makes the entries whose file
 *   is missing empty pages;
 * - `git-summary`: the same SUMMARY.md through a Git import, with every file (the job runs in the same process);
 * - `git-redirects`: a `.gitbook.yaml` of 100,000 redirects through a Git import (refused, saying why), then
 *   one of 10,000 (the most Quire takes, stored);
 * - `comment`: comments whose Markdown is hard to parse (20,000 characters each: headings, an unclosed code
 *   fence, links, nested emphasis), posted and then listed.
 *
 * Runs in-process on a fresh database (in-memory SQLite, or a new schema of the PostgreSQL server named by
 * --database or TEST_DATABASE_URL), as the hostile-documents test does. While the request runs, a second
 * client reads `/readyz` every 5 ms; a read's delay counts from when it was due, so time the loop spent
 * blocked before the read could start counts too. It also prints the largest event-loop delay seen by
 * `perf_hooks.monitorEventLoopDelay`. Figures are only meaningful on a quiet machine; the goal is that no
 * case holds `/readyz` over 500 ms. With `--stalls`, each run also prints its three longest stalls of the
 * event loop with what ran in them (scripts/readyz-stalls.ts); add `--cpu-prof` to node's arguments for a
 * whole profile.
 */
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createGitTestApp, lastOperation, runJobs } from '../test/git/helpers.ts';
import { startGitServer } from '../test/git/server.ts';
import { createSpaceWithPages } from '../test/helpers/content-factory.ts';
import { createWorld } from '../test/helpers/factories.ts';
import { buildZip, dataUrl } from '../test/imports/helpers.ts';
import { DEFAULT_LIMITS } from '../src/imports/limits.ts';
import type { TestApp } from '../test/helpers/app.ts';
import { watchStalls, type Stall } from './readyz-stalls.ts';

const CASES = ['zip-summary', 'git-summary', 'git-redirects', 'comment'] as const;
type CaseName = (typeof CASES)[number];

const usage = `usage: node --import tsx scripts/readyz-probe.ts [--database postgres://…] [--case ${CASES.join('|')}]… [--runs N] [--entries N] [--stalls]`;
let values;
try {
  ({ values } = parseArgs({ options: { database: { type: 'string' }, case: { type: 'string', multiple: true }, runs: { type: 'string' }, entries: { type: 'string' }, stalls: { type: 'boolean' }, help: { type: 'boolean' } }, strict: true }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const chosen = (values.case ?? [...CASES]) as CaseName[];
const showStalls = values.stalls === true;
const unknown = chosen.filter((name) => !CASES.includes(name));
const runs = values.runs === undefined ? 1 : Number(values.runs);
const entries = values.entries === undefined ? 50_000 : Number(values.entries);
if (unknown.length > 0 || !Number.isInteger(runs) || runs < 1 || !Number.isInteger(entries) || entries < 1) {
  console.error(`${unknown.length ? `unknown case ${unknown.join(', ')}` : '--runs and --entries must be positive integers'}\n${usage}`);
  process.exit(2);
}
if (values.database) process.env.TEST_DATABASE_URL = values.database;
const dialect = values.database || process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

const manyRedirects = (count: number) => `redirects:\n${Array.from({ length: count }, (_, i) => `  r${i}: README.md`).join('\n')}\n`;
// Each entry names a file of its own (decision 0111: a path named twice is one page and links to it).
const bigSummary = (entries: number) => `# Summary\n\n${Array.from({ length: entries }, (_, i) => `* [P${i}](p${i}.md)`).join('\n')}\n`;
const pagesOf = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `p${i}.md`, data: `# P${i}\n` }));
/** The most files an archive beside its SUMMARY.md may hold. */
const ZIP_FILES = DEFAULT_LIMITS.maxEntries - 1;
const COMMENTS = [
  '# Same\n\n'.repeat(2_500),
  '```\n' + 'code line\n'.repeat(1_990),
  '[a](http://x) '.repeat(1_420),
  '*a '.repeat(3_300) + 'x' + ' a*'.repeat(3_300),
  '>'.repeat(19_990) + ' deep',
].map((markdown) => markdown.slice(0, 20_000));

/**
 * Runs `work` with Git's automatic gc off: a commit of tens of thousands of new files starts a gc in the
 * background, which writes into the work tree's .git while the test server removes it.
 */
function withoutAutoGc(work: () => void): void {
  const saved = { count: process.env.GIT_CONFIG_COUNT, key: process.env.GIT_CONFIG_KEY_0, value: process.env.GIT_CONFIG_VALUE_0 };
  Object.assign(process.env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'gc.auto', GIT_CONFIG_VALUE_0: '0' });
  try {
    work();
  } finally {
    for (const [name, value] of [['GIT_CONFIG_COUNT', saved.count], ['GIT_CONFIG_KEY_0', saved.key], ['GIT_CONFIG_VALUE_0', saved.value]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** An answer's body, shortened for a failed check. */
const show = (body: unknown) => String(JSON.stringify(body)).slice(0, 300);

interface Probe {
  worst: number;
  reads: number;
  loopMax: number;
  stalls: Stall[];
}

/** Runs `work` while a second client reads /readyz every 5 ms; the worst delay of a read and of the loop. */
async function probe(t: TestApp, work: () => Promise<void>): Promise<Probe> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let done = false;
  let worst = 0;
  let reads = 0;
  let stalls: Stall[] = [];
  const watch = showStalls ? await watchStalls() : undefined;
  const reader = (async () => {
    let due = performance.now();
    for (;;) {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200, `/readyz answered ${ready.statusCode}`);
      worst = Math.max(worst, performance.now() - due);
      reads++;
      if (done) break;
      due = performance.now() + 5;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  histogram.enable();
  try {
    await work();
  } finally {
    done = true;
    await reader;
    histogram.disable();
    if (watch) stalls = await watch.stop();
  }
  return { worst, reads, loopMax: histogram.max / 1e6, stalls };
}

const t = await createGitTestApp(dialect);
const remote = await startGitServer();
try {
  const world = await createWorld(t.ctx, t.app, t.clock);
  const api = world.members.edit.api;
  const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Intro', markdown: 'Hello.' }]);
  remote.createRepo('redirects', { '.gitbook.yaml': manyRedirects(100_000), 'README.md': '# Top\n' });
  remote.createRepo('redirects-10k', { '.gitbook.yaml': manyRedirects(10_000), 'README.md': '# Top\n' });
  const summaryZip = dataUrl('application/zip', buildZip([{ name: 'SUMMARY.md', data: bigSummary(entries) }, ...pagesOf(Math.min(entries, ZIP_FILES))]));

  let summaryRepo = false;
  const gitImport = async (repo: string, expect: 'success' | 'failure') => {
    const target = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Kept', markdown: 'Kept.' }]);
    return async () => {
      const reply = await api.post(`/v1/spaces/${target.spaceId}/git/import`, { url: remote.url(repo), ref: 'refs/heads/main' });
      assert.equal(reply.status, 204, show(reply.body));
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, target.spaceId);
      assert.equal(operation.state, expect, operation.error ?? '');
    };
  };
  const work: Record<CaseName, () => Promise<() => Promise<void>>> = {
    'zip-summary': async () => async () => {
      const reply = await api.post(`/v1/spaces/${spaceId}/content/import`, { source: 'zip', url: summaryZip });
      assert.equal(reply.status, 201, show(reply.body));
      await runJobs(t.ctx);
    },
    'git-summary': async () => {
      if (!summaryRepo) {
        withoutAutoGc(() => remote.createRepo('summary', { 'SUMMARY.md': bigSummary(entries), ...Object.fromEntries(pagesOf(entries).map((page) => [page.name, page.data])) }));
        summaryRepo = true;
      }
      return gitImport('summary', 'success');
    },
    'git-redirects': async () => {
      const refused = await gitImport('redirects', 'failure');
      const taken = await gitImport('redirects-10k', 'success');
      return async () => {
        await refused();
        await taken();
      };
    },
    comment: async () => async () => {
      for (const markdown of COMMENTS) {
        const reply = await api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown } });
        // Taken, or refused in the error shape (a document nested deeper than a page may).
        assert.ok(reply.status === 200 || reply.body?.error?.code === 400, show(reply.body));
      }
      const list = await api.get(`/v1/spaces/${spaceId}/comments?limit=100`);
      assert.equal(list.status, 200, show(list.body));
    },
  };

  console.log(`worst /readyz delay per case on ${dialect} (${runs} run${runs > 1 ? 's' : ''} each; goal: under 500 ms on a quiet machine)`);
  for (const name of chosen) {
    for (let run = 1; run <= runs; run++) {
      const prepared = await work[name]();
      const started = performance.now();
      try {
        const { worst, reads, loopMax, stalls } = await probe(t, prepared);
        console.log(`${dialect}\t${name}\t/readyz worst ${Math.round(worst)} ms\tevent loop max ${Math.round(loopMax)} ms\t${reads} reads over ${Math.round(performance.now() - started)} ms`);
        for (const stall of stalls) console.log(`\tstall ${stall.ms} ms (${stall.samples} CPU samples): ${stall.frames.join(' < ') || 'no sample of Quire'}`);
      } catch (error) {
        // A case that did not end as expected (on a loaded machine, a read on the pool can run out of time) is reported, and the next runs.
        process.exitCode = 1;
        console.log(`${dialect}\t${name}\tdid not end as expected: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  }
} finally {
  await remote.close();
  t.violations.length = 0;
  await t.close();
}
