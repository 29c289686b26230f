// Imported first in each test file's process (scripts/test.mjs), before tsx registers: when the file builds the
// app (it imports test/helpers/app.ts or src/app.ts, itself or through the files it imports from test/), the
// packages the app imports are loaded at Node's own speed first (bin/preload.mjs says why): some 1.3 s of CPU
// less per such file on CI's machine. A file that does not build the app is left alone (it would pay for them).
//
// When the file runs from the test bundle (QUIRE_TEST_BUNDLE_DIR, scripts/test-bundle.mjs; decision 0145) there is no
// tsx to go before: nothing is preloaded, and the bundle's hook for imports by a computed path is set here instead.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { APP, preload } from '../bin/preload.mjs';

const root = resolve(import.meta.dirname, '..');
const testDir = resolve(root, 'test');

/** Whether the file, or a file it imports from test/ (to `depth` levels), imports the app's builder. */
function buildsApp(file, depth, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (/from '[./]*(?:helpers\/app|src\/app)\.ts'/.test(text)) return true;
  if (depth === 0) return false;
  for (const [, path] of text.matchAll(/from '(\.{1,2}\/[^']+\.ts)'/g)) {
    const imported = resolve(dirname(file), path);
    if (imported.startsWith(testDir) && buildsApp(imported, depth - 1, seen)) return true;
  }
  return false;
}

const bundle = process.env.QUIRE_TEST_BUNDLE_DIR;
if (bundle) {
  let tsx;
  /**
   * `import(specifier)` of a module of the bundle, called with the URL of the source that wrote it: the bundle's
   * build of the file when it has one (scripts/test-bundle.mjs builds RUNTIME_IMPORTS for this), a package or a file of another
   * kind as it is, and any other TypeScript file through tsx, registered on the first such import only.
   */
  globalThis[Symbol.for('quire.test.import')] = (importer) => async (specifier, options) => {
    const url = /^[./]/.test(specifier) ? new URL(specifier, importer).href : specifier;
    // A package: from the root's node_modules, as the sources find it.
    if (!url.startsWith('file:')) return import(url, options);
    const path = fileURLToPath(url);
    if (!/\.[cm]?tsx?$/.test(path)) return import(url, options);
    const built = resolve(bundle, relative(root, path).replace(/\.[cm]?tsx?$/, '.mjs'));
    if (!relative(root, path).startsWith('..') && existsSync(built)) return import(pathToFileURL(built).href);
    tsx ??= (await import('tsx/esm/api')).register({ namespace: 'quire-test' });
    return tsx.import(url, importer);
  };
}

const file = process.argv[1] ? resolve(process.argv[1]) : '';
if (!bundle && file.startsWith(testDir) && file.endsWith('.test.ts') && buildsApp(file, 2)) await preload(APP);
