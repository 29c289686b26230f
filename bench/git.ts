/**
 * Git Sync speed (`npm run bench -- git`, or `node --import tsx bench/git.ts`), each figure beside its
 * baseline measured in the same run, against a real smart-HTTP remote (git http-backend on 127.0.0.1):
 *
 *   import, 5,000-page repository          against `git clone` of it                   target <= 10x
 *   re-import after a one-file push        5,000 pages against 50 pages                 target <= 3x
 *   export of a one-page change            5,000 pages against 50 pages                 target <= 3x
 *   import and export, 50,000 pages        time and peak RSS of the process             target RSS < 1 GB
 *
 * The 50,000-page import and export run in a process of their own (bench/git-large.ts, as `quire git import`
 * would), so its peak RSS is Quire's: not the generated repository, the git server of the bench or what
 * the 5,000-page rounds left in memory.
 *
 * BENCH_GIT_RUNS (default 3) rounds for the medians; BENCH_GIT_LARGE (default 50000; 0 skips) pages of the
 * large repository. SQLite in a fresh data folder; the operations run in this process as the job would.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../src/context.ts';
import { getObject } from '../src/content/objects.ts';
import { findRevision } from '../src/content/revisions.ts';
import { loadTree, walkPages } from '../src/content/tree.ts';
import { RevisionWriter } from '../src/content/writer.ts';
import { runOperation } from '../src/git/run.ts';
import { createOperation, type GitRequest } from '../src/git/state.ts';
import { createOrganization } from '../src/modules/orgs/service.ts';
import { createSpace } from '../test/helpers/content-factory.ts';
import { startGitServer, type GitServer } from '../test/git/server.ts';
import { header, median, row } from './lib.ts';
import { pageMarkdown, withContext } from './seed.ts';

const runs = Number(process.env.BENCH_GIT_RUNS ?? 3);
const large = Number(process.env.BENCH_GIT_LARGE ?? 50_000);

/** A bare repository of `pages` pages in GitBook's layout (folders of 50, SUMMARY.md), made with one fast-import. */
function makeRepo(remote: GitServer, name: string, pages: number): void {
  const bare = join(remote.root, 'repos', `${name}.git`);
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  execFileSync('git', ['config', 'http.receivepack', 'true'], { cwd: bare });
  const chunks: string[] = [];
  const file = (path: string, text: string) => chunks.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
  const summary = ['# Table of contents', '', '* [Introduction](README.md)'];
  file('README.md', '# Introduction\n\nThe generated docs.\n');
  for (let n = 0; n < pages - 1; n++) {
    const folder = `part-${Math.floor(n / 50)}`;
    if (n % 50 === 0) {
      file(`${folder}/README.md`, `# Part ${Math.floor(n / 50)}\n\nTopics ${n} and on.\n`);
      summary.push(`* [Part ${Math.floor(n / 50)}](${folder}/README.md)`);
    }
    file(`${folder}/topic-${n}.md`, `${pageMarkdown(n)}\n`);
    summary.push(`  * [Topic ${n}](${folder}/topic-${n}.md)`);
  }
  file('SUMMARY.md', `${summary.join('\n')}\n`);
  const stream = `commit refs/heads/main\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 8\nGenerate\n${chunks.join('')}done\n`;
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: bare, input: stream, maxBuffer: 1 << 30 });
}

/** A push that edits one page (a commit on top of the branch, as a user's push would leave it). */
function pushOneEdit(remote: GitServer, name: string, round: number): void {
  const bare = join(remote.root, 'repos', `${name}.git`);
  const text = `${pageMarkdown(7)}\n\nEdited in round ${round}.\n`;
  const stream = `commit refs/heads/main\ncommitter Bench <bench@example.com> ${1700000001 + round} +0000\ndata 4\nEdit\nfrom refs/heads/main^0\nM 100644 inline part-0/topic-7.md\ndata ${Buffer.byteLength(text)}\n${text}\ndone\n`;
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: bare, input: stream });
}

export async function operate(ctx: Context, spaceId: string, direction: 'import' | 'export', url: string): Promise<number> {
  const request: GitRequest = { url, ref: 'refs/heads/main', projectDirectory: '', force: false, standalone: false, ...(direction === 'export' ? { commitMessage: 'Bench edit' } : {}) };
  const id = await createOperation(ctx, spaceId, direction, request);
  const started = performance.now();
  await runOperation(ctx, id);
  return performance.now() - started;
}

/** Edits one page of the space in Quire (the way a merge would leave it). */
export async function editOnePage(ctx: Context, spaceId: string, round: number): Promise<void> {
  const space = await ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
  const tree = await loadTree(ctx, (await findRevision(ctx, space.revision_id))!.root);
  const page = [...walkPages(tree.pages)].find((p) => p.node.git?.path === 'part-0/topic-3.md')!;
  const markdown = await getObject(ctx, page.node.body!);
  const writer = await RevisionWriter.fromRevision(ctx, space.revision_id);
  writer.updatePage(page.node.id, { markdown: `${markdown.replace(/\n+$/, '')}\n\nQuire edit ${round}.\n` });
  const { revisionId } = await writer.commit(ctx, { spaceId, type: 'edits', parents: [space.revision_id] });
  await ctx.db.updateTable('spaces').set({ revision_id: revisionId }).where('id', '=', spaceId).execute();
}

/** Milliseconds of a full `git clone` of the repository (asynchronous: the remote is served by this process). */
async function cloneTime(url: string): Promise<number> {
  const target = mkdtempSync(join(tmpdir(), 'quire-bench-clone-'));
  const started = performance.now();
  const status = await new Promise<number | null>((resolve) => {
    const child = spawn('git', ['clone', '--quiet', '--', url, join(target, 'work')], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, stdio: 'ignore' });
    child.on('exit', resolve);
  });
  const elapsed = performance.now() - started;
  rmSync(target, { recursive: true, force: true });
  if (status !== 0) throw new Error(`git clone of ${url} failed (exit code ${status}).`);
  return elapsed;
}

/** bench/git-large.ts against `url`, in a child process (asynchronously: the remote is served by this one). */
async function largeRun(url: string): Promise<{ imported: number; exported: number; rss: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'git-large.ts'), url], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (status !== 0) throw new Error(`The ${large}-page import failed (exit code ${status}): ${stderr}`);
  return JSON.parse(stdout.trim().split('\n').pop()!) as { imported: number; exported: number; rss: number };
}

export async function gitBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-git-'));
  process.env.QUIRE_IMPORT_ALLOW_PRIVATE = '1';
  const remote = await startGitServer();
  try {
    await withContext(dataDir, async (ctx) => {
      const { organization } = await createOrganization(ctx, { title: 'Bench', ownerEmail: 'bench@example.com' });
      makeRepo(remote, 'big', 5000);
      makeRepo(remote, 'small', 50);
      header();
      const imports: number[] = [];
      const clones: number[] = [];
      const spaces: Record<'big' | 'small', string> = { big: '', small: '' };
      for (let round = 0; round < runs; round++) {
        clones.push(await cloneTime(remote.url('big')));
        const spaceId = await createSpace(ctx, organization.id);
        imports.push(await operate(ctx, spaceId, 'import', remote.url('big')));
        spaces.big = spaceId;
      }
      const ratio = median(imports) / median(clones);
      row('import 5,000 pages vs git clone (ms)', median(imports).toFixed(0), median(clones).toFixed(0), ratio, '<= 10.00x', ratio <= 10);
      spaces.small = await createSpace(ctx, organization.id);
      await operate(ctx, spaces.small, 'import', remote.url('small'));

      const reimport = { big: [] as number[], small: [] as number[] };
      const exports = { big: [] as number[], small: [] as number[] };
      for (let round = 0; round < runs; round++) {
        for (const name of ['big', 'small'] as const) {
          pushOneEdit(remote, name, round);
          reimport[name].push(await operate(ctx, spaces[name], 'import', remote.url(name)));
          await editOnePage(ctx, spaces[name], round);
          exports[name].push(await operate(ctx, spaces[name], 'export', remote.url(name)));
        }
      }
      const re = median(reimport.big) / median(reimport.small);
      row('re-import one-file push, 5,000 vs 50 (ms)', median(reimport.big).toFixed(0), median(reimport.small).toFixed(0), re, '<= 3.00x', re <= 3);
      const ex = median(exports.big) / median(exports.small);
      row('export one-page change, 5,000 vs 50 (ms)', median(exports.big).toFixed(0), median(exports.small).toFixed(0), ex, '<= 3.00x', ex <= 3);
      const check = await ctx.db.selectFrom('git_operations').select(['state', 'error']).where('state', '!=', 'success').execute();
      if (check.length > 0) throw new Error(`Bench operations failed: ${JSON.stringify(check.slice(0, 3))}`);

      if (large > 0) {
        makeRepo(remote, 'huge', large);
        const { imported, exported, rss } = await largeRun(remote.url('huge'));
        row(`import ${large.toLocaleString('en')} pages (ms)`, imported.toFixed(0), '-', '-', 'works');
        row(`export one page, ${large.toLocaleString('en')} pages (ms)`, exported.toFixed(0), '-', '-', 'works');
        row('peak RSS of that process (MB)', rss.toFixed(0), '1024', rss / 1024, '< 1 GB', rss < 1024);
      }
      console.log(`(medians of ${runs} rounds; SQLite in ${dataDir}; remote: git http-backend on 127.0.0.1)`);
    });
  } finally {
    await remote.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith(`bench/git.ts`)) await gitBench();
