// What the bundles of Quire's own sources share: the test bundle (scripts/test-bundle.mjs, decision 0145), the
// command line's bundle (scripts/build-worker.mjs, bin/quire, decision 0146) and the worker threads' bundle (the same
// script, decision 0143). Built with esbuild into plain ES
// modules, packages external, they run the sources as the sources run through tsx, found where the sources are:
//
// - each source's `import.meta.url`, `.dirname` and `.filename` is written, as esbuild loads it, as that source's
//   own location (a bundle has one import.meta for all its modules), so package.json, the migrations folder,
//   assets, web/dist, `createRequire` and the worker pool (which finds a task's module by its source URL) find what
//   they found before, wherever the bundle sits;
// - an `import(expression)` (not a string literal) goes through the hook `setImportHook` sets, which loads the
//   bundle's build of a `.ts` file (the files `runtimeImports()` names are built as entry points for this), a
//   package or a file of another kind as it is, and any other TypeScript file through tsx, registered then.
//
// bin/quire imports this file at every start: it imports Node's own modules only (esbuild when building).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(import.meta.dirname, '..');

/** The sources that are imported by a computed path (see above): built as entry points, so that they are in a bundle. */
export function runtimeImports(root = ROOT) {
  const migrations = readdirSync(join(root, 'src', 'db', 'migrations'))
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => `src/db/migrations/${name}`);
  return [...migrations, 'web/src/editor/convert.ts', 'web/src/editor/schema.ts', 'web/src/live/model-version.ts', 'src/sessions/passwords.ts'];
}

/** Where a bundle's build of a source file is (whether or not it was built): `test/a.test.ts` → `DIR/test/a.test.mjs`. */
export function builtPath(dir, source, root = ROOT) {
  return join(dir, relative(root, source).replace(/\.[cm]?tsx?$|\.[cm]?js$/, '.mjs'));
}

/** The global that an `import(expression)` of a bundled source calls (a curried function: the importer's URL first). */
const IMPORT_HOOK = "globalThis[Symbol.for('quire.bundle.import')]";

/**
 * What is rewritten, after what is skipped: a comment or a string literal (kept); `import.meta.url`, `.dirname`,
 * `.filename`; `import(` followed by anything but a string literal (or `)`, as in a comment's "import()").
 */
const CODE = /(\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)|\bimport\.meta\.(url|dirname|filename)\b|(?<![\w$.])import\((?=\s*[^\s'"`)])/g;

/** The esbuild plugin: each source's import.meta as its own location, and its `import(expression)` through the hook. */
export const ownLocation = {
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
        return `${IMPORT_HOOK}(${url})(`;
      });
      const extension = args.path.match(/\.([cm]?)([jt]sx?)$/);
      return { contents, loader: extension[2] };
    });
  },
};

/** esbuild, which comes with tsx (a runtime dependency: it runs the sources). */
export async function loadEsbuild(root = ROOT) {
  const require = createRequire(createRequire(join(root, 'package.json')).resolve('tsx/package.json'));
  return import(pathToFileURL(require.resolve('esbuild')).href);
}

/** The options every bundle of the sources is built with: ESM, shared chunks, packages external, the plugin. */
export function bundleOptions(entryPoints, outdir, root = ROOT) {
  return {
    absWorkingDir: root,
    entryPoints,
    outdir,
    outbase: root,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    // One copy of each module per process, shared by the entry points.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Node loads packages from node_modules as for the sources: one copy, and no rebuild after `npm install`.
    packages: 'external',
    // Class and function names as in the sources (errors are rebuilt by their class's name, tests compare names).
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    plugins: [ownLocation],
    logLevel: 'error',
  };
}

/** The SHA-256 of each source an esbuild build read (its metafile's inputs, packages left out) and of `also`, by path from the root. */
export function sourceHashes(metafile, root = ROOT, also = []) {
  const inputs = {};
  for (const file of [...new Set([...Object.keys(metafile.inputs).filter((input) => !input.includes('node_modules/')), ...also])].sort()) {
    inputs[file] = createHash('sha256').update(readFileSync(join(root, file))).digest('hex');
  }
  return inputs;
}

/**
 * Whether a bundle built with a manifest `{ runtime, inputs }` (runtimeImports() and sourceHashes() when it was
 * built) may run: `{ usable: true }` only when every file it was built from still has that content and the files
 * imported by a computed path are the same (a migration added since is a reason to load the sources), else
 * `{ usable: false, reason: 'missing' | 'stale', file? }`. Content, not mtimes: a checkout that puts back an old
 * file with a new mtime, or a change within the same second, is still seen.
 */
export function bundleState(dir, root = ROOT) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    return { usable: false, reason: 'missing' };
  }
  if (manifest.runtime !== undefined) {
    let runtime;
    try {
      runtime = runtimeImports(root);
    } catch {
      return { usable: false, reason: 'stale', file: 'src/db/migrations' };
    }
    const added = runtime.find((file) => !manifest.runtime.includes(file)) ?? manifest.runtime.find((file) => !runtime.includes(file));
    if (added !== undefined) return { usable: false, reason: 'stale', file: added };
  }
  for (const [file, hash] of Object.entries(manifest.inputs ?? {})) {
    let content;
    try {
      content = readFileSync(join(root, file));
    } catch {
      return { usable: false, reason: 'stale', file };
    }
    if (createHash('sha256').update(content).digest('hex') !== hash) return { usable: false, reason: 'stale', file };
  }
  return { usable: true };
}

/**
 * Sets the hook through which the modules of the bundle in `dir` import by a computed path: the bundle's build of
 * the file when it has one, a package or a file of another kind as it is, and any other TypeScript file through
 * tsx (registered, in `namespace`, on the first such import only: it works, at tsx's cost).
 */
export function setImportHook(dir, namespace, root = ROOT) {
  let tsx;
  globalThis[Symbol.for('quire.bundle.import')] = (importer) => async (specifier, options) => {
    const url = /^[./]/.test(specifier) ? new URL(specifier, importer).href : specifier;
    // A package: from the root's node_modules, as the sources find it.
    if (!url.startsWith('file:')) return import(url, options);
    const path = fileURLToPath(url);
    if (!/\.[cm]?tsx?$/.test(path)) return import(url, options);
    const built = resolve(dir, relative(root, path).replace(/\.[cm]?tsx?$/, '.mjs'));
    if (!relative(root, path).startsWith('..') && existsSync(built)) return import(pathToFileURL(built).href);
    tsx ??= (await import('tsx/esm/api')).register({ namespace });
    return tsx.import(url, importer);
  };
}
