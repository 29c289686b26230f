import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { markdownReferences, readReferences } from '../../src/imports/conversions.ts';
import { workerBundleState } from '../../src/workers/bundle.ts';
import { closeWorkerPool, INLINE_BELOW, workerModules } from '../../src/workers/pool.ts';

const root = new URL('../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('worker bundle', () => {
  after(() => closeWorkerPool());

  it('is built from every module that declares a worker task', async () => {
    const declaring = sources(join(root, 'src'))
      .filter((path) => readFileSync(path, 'utf8').includes('workerTask(import.meta.url'))
      .map((path) => relative(root, path))
      .sort();
    const { WORKER_MODULES } = (await import(pathToFileURL(join(root, 'scripts', 'build-worker.mjs')).href)) as { WORKER_MODULES: string[] };
    assert.deepEqual([...WORKER_MODULES].sort(), declaring);
  });

  it('is used only while every file it was built from has the content it was built from', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-worker-bundle-'));
    try {
      const bundle = join(dir, 'bundle');
      mkdirSync(bundle);
      assert.deepEqual(workerBundleState(bundle, dir), { usable: false, reason: 'missing' });
      writeFileSync(join(dir, 'a.ts'), 'export const a = 1;');
      const hash = createHash('sha256').update('export const a = 1;').digest('hex');
      writeFileSync(join(bundle, 'manifest.json'), JSON.stringify({ modules: { 'a.ts': 'a.js' }, inputs: { 'a.ts': hash } }));
      const state = workerBundleState(bundle, dir);
      assert.deepEqual(state, { usable: true, modules: { [pathToFileURL(join(dir, 'a.ts')).href]: pathToFileURL(join(bundle, 'a.js')).href } });
      writeFileSync(join(dir, 'a.ts'), 'export const a = 2;');
      assert.deepEqual(workerBundleState(bundle, dir), { usable: false, reason: 'stale', file: 'a.ts' });
      rmSync(join(dir, 'a.ts'));
      assert.deepEqual(workerBundleState(bundle, dir), { usable: false, reason: 'stale', file: 'a.ts' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the same answer from the bundle as from the sources, when the bundle is current', async () => {
    const body = `# Title\n\n[a page](other.md) ![a picture](pic.png)\n\n${'Some text. '.repeat(INLINE_BELOW / 10)}`;
    const far = await readReferences([{ markdown: body, name: 'a.md' }], undefined, true);
    assert.deepEqual(far, markdownReferences([{ markdown: body, name: 'a.md' }]));
    assert.ok(far[0].includes('pic.png'));
    // The threads loaded what the bundle's state at the pool's start allowed: never a stale bundle.
    const state = workerBundleState();
    assert.equal(workerModules, state.usable ? 'bundle' : state.reason);
  });
});
