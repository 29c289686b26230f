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
// src/live/model.ts loads) goes through `globalThis[Symbol.for('quire.test.import')]` (scripts/test-preload.mjs),
// which loads the bundle's build of that file, built here as an entry point of its own (RUNTIME_IMPORTS), or a
// file of another kind as it is; a TypeScript file that was not built is loaded through tsx, registered then.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');

/** The sources that are imported by a computed path (see above): built as entry points, so that they are in the bundle. */
export function runtimeImports() {
  const migrations = readdirSync(join(root, 'src', 'db', 'migrations'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `src/db/migrations/${name}`);
  return [...migrations, 'web/src/editor/convert.ts', 'web/src/editor/schema.ts', 'web/src/live/model-version.ts', 'src/sessions/passwords.ts'];
}

/** Where the bundle's build of a source file is (whether or not it was built): `test/a.test.ts` → `DIR/test/a.test.mjs`. */
export function builtPath(dir, source) {
  return join(dir, relative(root, source).replace(/\.[cm]?tsx?$|\.[cm]?js$/, '.mjs'));
}

/** The source file a file of the bundle was built from (the inverse of builtPath, for the entry points). */
export function sourcePath(dir, built) {
  return join(root, relative(dir, built).replace(/\.mjs$/, '.ts'));
}

/** The text that the loading hook of the dynamic imports is called as (a curried function: the importer's URL first). */
const DYNAMIC_IMPORT = "globalThis[Symbol.for('quire.test.import')]";

/**
 * What is rewritten, after what is skipped: a comment or a string literal (kept); `import.meta.url`, `.dirname`,
 * `.filename`; `import(` followed by anything but a string literal (or `)`, as in a comment's "import()").
 */
const CODE = /(\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)|\bimport\.meta\.(url|dirname|filename)\b|(?<![\w$.])import\((?=\s*[^\s'"`)])/g;

/** Each source's import.meta as its own location, and its `import(expression)` through the hook above. */
const ownLocation = {
  name: 'own-location',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta') && !text.includes('import(')) return undefined;
      const url = JSON.stringify(pathToFileURL(args.path).href);
      const meta = { url, dirname: JSON.stringify(dirname(args.path)), filename: JSON.stringify(args.path) };
      // Comments and string literals are kept as they are (a test may look for "import.meta.url" in a file's text).
      const contents = text.replace(CODE, (match, kept, property) => {
        if (kept !== undefined) return kept;
        if (property !== undefined) return meta[property];
        return `${DYNAMIC_IMPORT}(${url})(`;
      });
      const extension = args.path.match(/\.([cm]?)([jt]sx?)$/);
      return { contents, loader: extension[2] };
    });
  },
};

/** esbuild, which comes with tsx (as scripts/build-worker.mjs loads it). */
async function loadEsbuild() {
  const require = createRequire(createRequire(join(root, 'package.json')).resolve('tsx/package.json'));
  return import(pathToFileURL(require.resolve('esbuild')).href);
}

/** Builds `files` (paths relative to the root) and RUNTIME_IMPORTS into `dir`; answers the seconds it took and the files built. */
export async function buildTestBundle(files, dir) {
  const started = process.hrtime.bigint();
  const esbuild = await loadEsbuild();
  rmSync(dir, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [...new Set([...files, ...runtimeImports()])],
    outdir: dir,
    outbase: root,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // Class and function names as in the sources (errors are rebuilt by their class's name, tests compare names).
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    plugins: [ownLocation],
    logLevel: 'error',
  });
  // esbuild's service process ends here (its CPU then counts in this process's children's).
  await esbuild.stop?.();
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    sources: Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules/')).length,
    outputs: Object.keys(result.metafile.outputs).filter((output) => output.endsWith('.mjs')).length,
  };
}
