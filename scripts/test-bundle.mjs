// Builds the test files that scripts/test.mjs is about to run into plain JavaScript (decision 0145): one esbuild
// build, every test file an entry point, split into shared chunks (one copy of each module per process), the
// packages left external (Node loads them from node_modules as it does for the sources), with source maps so that
// a failure's stack names the .ts lines. A test file's process then loads a few chunks at Node's own speed instead
// of compiling some hundreds of TypeScript files through tsx's loader hooks: some 4 s of CPU less for a file that
// builds the app.
//
// The bundle sits in .tmp/test-bundle-<pid>/, laid out as the repository (test/api/teams.test.ts is built to
// test/api/teams.test.mjs there), so that the runner's files map back to their sources by name. Modules find
// files by their own location: each source's `import.meta.url`, `import.meta.dirname` and `import.meta.filename`
// is written, as it is built, as that source's own location (a bundle has one import.meta for all its modules).
// A module imported at run time by a computed path (`import(x)`: the migrations, the editor's mapping that
// src/live/model.ts loads) goes through `globalThis[Symbol.for('quire.bundle.import')]` (scripts/test-preload.mjs),
// which loads the bundle's build of that file, built here as an entry point of its own (runtimeImports()), or a
// file of another kind as it is; a TypeScript file that was not built is loaded through tsx, registered then.
// The plugin, the build's options and the hook are shared with the command line's bundle: scripts/source-bundle.mjs.
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundleOptions, loadEsbuild, ROOT, runtimeImports } from './source-bundle.mjs';

export { builtPath, runtimeImports } from './source-bundle.mjs';

const root = ROOT;

/** The source file a file of the bundle was built from (the inverse of builtPath, for the entry points). */
export function sourcePath(dir, built) {
  return join(root, relative(dir, built).replace(/\.mjs$/, '.ts'));
}

/** Builds `files` (paths relative to the root) and runtimeImports() into `dir`; answers the seconds it took and the files built. */
export async function buildTestBundle(files, dir) {
  const started = process.hrtime.bigint();
  const esbuild = await loadEsbuild();
  rmSync(dir, { recursive: true, force: true });
  const result = await esbuild.build(bundleOptions([...new Set([...files, ...runtimeImports()])], dir));
  // esbuild's service process ends here (its CPU then counts in this process's children's).
  await esbuild.stop?.();
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    sources: Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules/')).length,
    outputs: Object.keys(result.metafile.outputs).filter((output) => output.endsWith('.mjs')).length,
  };
}
