import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

// The command line's bundle (decision 0146): bin/quire runs it only while every source it was built from has the
// content it was built from, and the files imported by a computed path (the migrations) are those it was built
// with; else the TypeScript sources through tsx. A developer who edits a source never runs the old code.

const root = join(import.meta.dirname, '..', '..');
type State = { usable: boolean; reason?: string; file?: string };
const { bundleState, runtimeImports } = (await import(pathToFileURL(join(root, 'scripts', 'source-bundle.mjs')).href)) as {
  bundleState(dir: string, root?: string): State;
  runtimeImports(root?: string): string[];
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('command line bundle', () => {
  it('is used only while its sources and the migrations are those it was built from', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-cli-bundle-'));
    try {
      const bundle = join(dir, 'bundle');
      mkdirSync(bundle);
      mkdirSync(join(dir, 'src', 'db', 'migrations'), { recursive: true });
      assert.deepEqual(bundleState(bundle, dir), { usable: false, reason: 'missing' });

      writeFileSync(join(dir, 'src', 'main.ts'), 'export const a = 1;');
      writeFileSync(join(dir, 'src', 'db', 'migrations', '0001-first.ts'), 'export const up = 1;');
      const runtime = runtimeImports(dir);
      assert.ok(runtime.includes('src/db/migrations/0001-first.ts'));
      const inputs = { 'src/main.ts': sha256('export const a = 1;'), 'src/db/migrations/0001-first.ts': sha256('export const up = 1;') };
      writeFileSync(join(bundle, 'manifest.json'), JSON.stringify({ runtime, inputs }));
      assert.deepEqual(bundleState(bundle, dir), { usable: true });

      // A source changed: the sources, through tsx.
      writeFileSync(join(dir, 'src', 'main.ts'), 'export const a = 2;');
      assert.deepEqual(bundleState(bundle, dir), { usable: false, reason: 'stale', file: 'src/main.ts' });
      // Put back as it was (a new mtime, the same content): the bundle again.
      writeFileSync(join(dir, 'src', 'main.ts'), 'export const a = 1;');
      assert.deepEqual(bundleState(bundle, dir), { usable: true });

      // A migration added since the build (the bundle has no build of it): the sources.
      writeFileSync(join(dir, 'src', 'db', 'migrations', '0002-second.ts'), 'export const up = 2;');
      assert.deepEqual(bundleState(bundle, dir), { usable: false, reason: 'stale', file: 'src/db/migrations/0002-second.ts' });
      rmSync(join(dir, 'src', 'db', 'migrations', '0002-second.ts'));
      assert.deepEqual(bundleState(bundle, dir), { usable: true });

      // A source removed.
      rmSync(join(dir, 'src', 'main.ts'));
      assert.deepEqual(bundleState(bundle, dir), { usable: false, reason: 'stale', file: 'src/main.ts' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs the same command either way (bundle or sources), and QUIRE_CLI_BUNDLE=0 runs the sources', () => {
    const data = mkdtempSync(join(tmpdir(), 'quire-cli-bundle-data-'));
    try {
      for (const bundle of ['1', '0']) {
        const run = spawnSync(process.execPath, [join(root, 'bin', 'quire'), 'migrate'], {
          env: { ...process.env, QUIRE_DATA_DIR: join(data, bundle), QUIRE_CLI_BUNDLE: bundle, QUIRE_DATABASE_URL: '' },
          encoding: 'utf8',
          timeout: 60_000,
        });
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stdout, /Applied \d+ migration\(s\)/);
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
