#!/usr/bin/env node
// Builds the worker bundle: the modules whose functions run on the worker pool (src/workers/pool.ts), with
// everything they import, as plain JavaScript in .tmp/worker-bundle/. A worker thread then loads a few files
// at Node's own speed instead of some 700 through tsx (its own loader per thread, compiling TypeScript):
// docs/decisions/0142-worker-pool-loaded-at-serve-start.md and docs/performance.md. Run by `npm install` (the
// `prepare` script), by `npm run build:worker`, and by `quire serve` when the bundle is missing or stale.
// manifest.json lists every file the bundle was built from with the SHA-256 of its content: the pool uses the
// bundle only when each file still has that content (src/workers/bundle.ts), else the TypeScript sources.
// Both bundles are built with the options and the plugin of scripts/source-bundle.mjs (each module's import.meta is
// its source's location, its `import(expression)` goes through that file's hook), as the test bundle is.
//
// It builds the command line's bundle too (decision 0146): src/cli/main.ts, with every module it imports and those
// imported by a computed path, in .tmp/cli-bundle/, with the plugin and options of the test bundle
// (scripts/source-bundle.mjs). bin/quire runs it when its manifest matches the sources, else the sources through tsx.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtPath, bundleOptions, loadEsbuild, runtimeImports, sourceHashes } from './source-bundle.mjs';

const root = join(import.meta.dirname, '..');

/** The modules that declare worker tasks (workerTask(import.meta.url, …)); test/unit/worker-bundle.test.ts checks the list. */
export const WORKER_MODULES = [
  'src/imports/conversions.ts',
  'src/imports/summary.ts',
  'src/imports/layout.ts',
  'src/search/page-text.ts',
  'src/modules/comments/bodies.ts',
];

export const BUNDLE_DIR = join(root, '.tmp', 'worker-bundle');
export const CLI_BUNDLE_DIR = join(root, '.tmp', 'cli-bundle');

/** Builds the bundle; returns its folder, or undefined (and says why) when esbuild cannot be loaded. */
export async function buildWorkerBundle({ quiet = false } = {}) {
  let esbuild;
  try {
    esbuild = await loadEsbuild(root);
  } catch (error) {
    if (!quiet) console.warn(`The worker bundle was not built (esbuild could not be loaded: ${error.message}); worker threads load the TypeScript sources.`);
    return undefined;
  }
  const building = `${BUNDLE_DIR}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  // The options and the plugin of the other bundles (scripts/source-bundle.mjs): each module's import.meta is its
  // source's location in a thread too.
  const result = await esbuild.build(bundleOptions(WORKER_MODULES, building, root));
  const inputs = sourceHashes(result.metafile, root, ['scripts/source-bundle.mjs', 'scripts/build-worker.mjs']);
  const modules = Object.fromEntries(WORKER_MODULES.map((module) => [module, relative(building, builtPath(building, join(root, module), root))]));
  writeFileSync(join(building, 'manifest.json'), `${JSON.stringify({ modules, inputs }, null, 1)}\n`);
  mkdirSync(join(root, '.tmp'), { recursive: true });
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  renameSync(building, BUNDLE_DIR);
  if (!quiet) console.log(`Worker bundle built in ${relative(root, BUNDLE_DIR)} from ${Object.keys(inputs).length} source files.`);
  return BUNDLE_DIR;
}

/**
 * Builds the command line's bundle (bin/quire runs it while it is current); returns its folder, or undefined (and
 * says why) when esbuild cannot be loaded: bin/quire then runs the sources through tsx, as it always can.
 */
export async function buildCliBundle({ quiet = false } = {}) {
  let esbuild;
  try {
    esbuild = await loadEsbuild(root);
  } catch (error) {
    if (!quiet) console.warn(`The command line's bundle was not built (esbuild could not be loaded: ${error.message}); bin/quire runs the TypeScript sources.`);
    return undefined;
  }
  const building = `${CLI_BUNDLE_DIR}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  // The files imported by a computed path are listed before the build: one added during it makes the bundle stale.
  const runtime = runtimeImports(root);
  const result = await esbuild.build(bundleOptions(['src/cli/main.ts', ...runtime], building, root));
  // The build's own scripts count as sources: a changed plugin makes the bundle stale as a changed source does.
  const inputs = sourceHashes(result.metafile, root, ['scripts/source-bundle.mjs', 'scripts/build-worker.mjs']);
  writeFileSync(join(building, 'manifest.json'), `${JSON.stringify({ runtime, inputs }, null, 1)}\n`);
  mkdirSync(join(root, '.tmp'), { recursive: true });
  rmSync(CLI_BUNDLE_DIR, { recursive: true, force: true });
  renameSync(building, CLI_BUNDLE_DIR);
  if (!quiet) console.log(`Command line bundle built in ${relative(root, CLI_BUNDLE_DIR)} from ${Object.keys(inputs).length} source files.`);
  return CLI_BUNDLE_DIR;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildWorkerBundle();
  await buildCliBundle();
}
