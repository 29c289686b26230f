import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { createContext, type Context } from '../../src/context.ts';
import { loadTree } from '../../src/content/tree.ts';
import { openDatabase } from '../../src/db/database.ts';
import { createServices } from '../../src/services.ts';
import { createSpace } from '../helpers/content-factory.ts';
import { createScratchDatabase } from '../helpers/scratch-database.ts';
import { buildZip, PNG } from './helpers.ts';

const QUIRE = join(import.meta.dirname, '..', '..', 'bin', 'quire');

function quire(args: string[], env: Record<string, string>) {
  const run = spawnSync(QUIRE, args, { env: { ...process.env, QUIRE_LOG_LEVEL: 'warn', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Works on the CLI's database directly, as the operator: no user, the CLI's own blob folder. */
async function withDatabase<T>(env: Record<string, string>, work: (ctx: Context) => Promise<T>): Promise<T> {
  const config = loadConfig(env);
  const database = openDatabase(config.databaseUrl);
  const key = randomBytes(32);
  const ctx = createContext(createServices({ config, database, masterKey: key }), null);
  try {
    return await work(ctx);
  } finally {
    await database.close();
  }
}

async function outline(ctx: Context, spaceId: string): Promise<{ pages: unknown[]; files: string[]; blobs: string[] }> {
  const space = await ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
  const revision = await ctx.db.selectFrom('revisions').select('root').where('id', '=', space.revision_id).executeTakeFirstOrThrow();
  const tree = await loadTree(ctx, revision.root);
  type Node = (typeof tree.pages)[number];
  const walk = (pages: Node[]): unknown[] => pages.map((page) => (page.pages.length ? [page.node.title, walk(page.pages)] : page.node.title));
  return { pages: walk(tree.pages), files: [...tree.files.values()].map((file) => file.name), blobs: [...tree.files.values()].map((file) => file.blob) };
}

const targets: Array<[string, () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>]> = [
  ['sqlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-import-cli-'));
    return { env: { QUIRE_DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }],
];
if (process.env.TEST_DATABASE_URL) {
  targets.push(['postgres', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-import-cli-'));
    const db = await createScratchDatabase('import_cli');
    return { env: { QUIRE_DATA_DIR: dir, QUIRE_DATABASE_URL: db.url }, cleanup: async () => { await db.drop(); rmSync(dir, { recursive: true, force: true }); } };
  }]);
}

for (const [dialect, setUp] of targets) {
  describe(`bin/quire import [${dialect}]`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups) await cleanup();
    });

    it('imports a folder (and single files) into a space as the operator; refuses a locked space', async () => {
      const { env, cleanup } = await setUp();
      cleanups.push(cleanup);
      const init = quire(['init', '--org', 'Acme', '--email', 'ada@acme.test', '--json'], env);
      assert.equal(init.code, 0, init.stderr);
      const { organization } = JSON.parse(init.stdout);
      const [spaceId, lockedId] = await withDatabase(env, async (ctx) => [await createSpace(ctx, organization), await createSpace(ctx, organization, { editMode: 'locked' })]);

      const folder = join(env.QUIRE_DATA_DIR, 'docs');
      mkdirSync(join(folder, 'guides', 'img'), { recursive: true });
      mkdirSync(join(folder, '.git'), { recursive: true });
      writeFileSync(join(folder, 'README.md'), '# Home\n\nStart at [guide 1](guides/guide-01.md).\n');
      for (let i = 1; i <= 60; i++) writeFileSync(join(folder, 'guides', `guide-${String(i).padStart(2, '0')}.md`), `# Guide ${i}\n\n![shot](img/shot.png)\n`);
      writeFileSync(join(folder, 'guides', 'img', 'shot.png'), PNG);
      writeFileSync(join(folder, '.git', 'HEAD'), 'ref: refs/heads/main\n');

      const run = quire(['import', folder, '--space', spaceId, '--json'], env);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout.trim().split('\n').length, 1, 'stdout is exactly one JSON object');
      const printed = JSON.parse(run.stdout);
      assert.deepEqual([printed.space, printed.importedResources, printed.totalResources], [spaceId, 63, 63]);
      const imported = await withDatabase(env, (ctx) => outline(ctx, spaceId));
      assert.equal(imported.pages.length, 2);
      assert.deepEqual(imported.pages[0], 'Home');
      assert.deepEqual((imported.pages[1] as [string, string[]])[0], 'Guides');
      assert.equal((imported.pages[1] as [string, string[]])[1].length, 60);
      assert.deepEqual(imported.files, ['shot.png']);
      const blob = imported.blobs[0];
      assert.ok(existsSync(join(env.QUIRE_DATA_DIR, 'blobs', blob.slice(0, 2), blob.slice(2))), 'the image is in the blob folder');

      writeFileSync(join(env.QUIRE_DATA_DIR, 'note.md'), '# A note\n');
      const file = quire(['import', join(env.QUIRE_DATA_DIR, 'note.md'), '--space', spaceId], env);
      assert.equal(file.code, 0, file.stderr);
      assert.match(file.stdout, /^Imported 1 of 1 resources into space \S+: new revision \S+\.\n$/);
      writeFileSync(join(env.QUIRE_DATA_DIR, 'more.zip'), buildZip([{ name: 'extra.md', data: '# Extra\n' }]));
      assert.equal(quire(['import', join(env.QUIRE_DATA_DIR, 'more.zip'), '--space', spaceId, '--json'], env).code, 0);
      assert.deepEqual((await withDatabase(env, (ctx) => outline(ctx, spaceId))).pages.slice(2), ['A note', 'Extra']);

      const locked = quire(['import', folder, '--space', lockedId], env);
      assert.equal(locked.code, 1);
      assert.match(locked.stderr, /locked/);
      assert.deepEqual((await withDatabase(env, (ctx) => outline(ctx, lockedId))).pages, []);

      const missing = quire(['import', folder], env);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--space is required/);
      const nowhere = quire(['import', join(folder, 'nope'), '--space', spaceId], env);
      assert.equal(nowhere.code, 1);
      assert.match(nowhere.stderr, /There is no file or folder/);
      const unknown = quire(['import', folder, '--space', 'no-such-space'], env);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /No space "no-such-space"/);
    });

    it('counts only what a folder import takes against the size limit, and says what it left out', async () => {
      const { env, cleanup } = await setUp();
      cleanups.push(cleanup);
      const init = quire(['init', '--org', 'Acme', '--email', 'ada@acme.test', '--json'], env);
      assert.equal(init.code, 0, init.stderr);
      const { organization } = JSON.parse(init.stdout);
      const spaceId = await withDatabase(env, (ctx) => createSpace(ctx, organization));
      const folder = join(env.QUIRE_DATA_DIR, 'checkout');
      mkdirSync(join(folder, '.gitbook', 'assets'), { recursive: true });
      writeFileSync(join(folder, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n');
      writeFileSync(join(folder, 'README.md'), '# Home\n\n![logo](.gitbook/assets/logo.png)\n');
      writeFileSync(join(folder, '.gitbook', 'assets', 'logo.png'), PNG);
      writeFileSync(join(folder, 'draft.md'), '# Not in the summary\n');
      // 600 MB that no page uses (a sparse file: nothing is written, and the import never reads it).
      writeFileSync(join(folder, '.gitbook', 'assets', 'recording.mov'), '');
      truncateSync(join(folder, '.gitbook', 'assets', 'recording.mov'), 600 * 1024 * 1024);

      const run = quire(['import', folder, '--space', spaceId, '--json'], env);
      assert.equal(run.code, 0, run.stderr);
      const printed = JSON.parse(run.stdout);
      assert.equal(printed.importedResources, 2);
      assert.deepEqual(printed.leftOut.files.sort(), ['.gitbook/assets/recording.mov', 'draft.md']);
      assert.ok(printed.leftOut.bytes >= 600 * 1024 * 1024);
      assert.deepEqual((await withDatabase(env, (ctx) => outline(ctx, spaceId))).files, ['logo.png']);
      const text = quire(['import', folder, '--space', spaceId], env);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /Left out 2 files \(600 MB\) that no imported page uses or the summary does not list: (\.gitbook\/assets\/recording\.mov, draft\.md|draft\.md, \.gitbook\/assets\/recording\.mov)\./);
    });
  });
}
