// Imported first in each test file's process (scripts/test.mjs), before tsx registers: when the file builds the
// app (it imports test/helpers/app.ts or src/app.ts, itself or through the files it imports from test/), the
// packages the app imports are loaded at Node's own speed first (bin/preload.mjs says why): some 1.3 s of CPU
// less per such file on CI's machine. A file that does not build the app is left alone (it would pay for them).
//
// When the file runs from the test bundle (QUIRE_TEST_BUNDLE_DIR, scripts/test-bundle.mjs; decision 0145) there is no
// tsx to go before: nothing is preloaded, and the bundle's hook for imports by a computed path is set here instead.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { APP, preload } from '../bin/preload.mjs';
import { setImportHook } from './source-bundle.mjs';

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
// Imports by a computed path load the bundle's build of the file (scripts/source-bundle.mjs, shared with bin/quire).
if (bundle) setImportHook(bundle, 'quire-test');

const file = process.argv[1] ? resolve(process.argv[1]) : '';
if (!bundle && file.startsWith(testDir) && file.endsWith('.test.ts') && buildsApp(file, 2)) await preload(APP);
