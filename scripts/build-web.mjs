#!/usr/bin/env node
// Builds the workspace (web/) with Vite into web/dist, which Quire serves at `/`. Run by `npm install`
// (the `prepare` script) and by `npm run build:web`. An install without the development tools (`--omit=dev`)
// cannot build; it keeps a build already there and says so, and Quire then answers 503 at `/` until built.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
let vite;
try {
  vite = join(dirname(require.resolve('vite/package.json', { paths: [root] })), 'bin', 'vite.js');
} catch {
  const built = existsSync(join(root, 'web', 'dist', 'index.html'));
  console.warn(`The workspace was not built: Vite is not installed (an install without devDependencies). ${built ? 'The build in web/dist is kept.' : 'Install with devDependencies, then run npm run build:web.'}`);
  process.exit(0);
}
const run = spawnSync(process.execPath, [vite, 'build', '--config', join(root, 'web', 'vite.config.ts'), '--logLevel', 'warn'], { stdio: 'inherit', cwd: root });
process.exit(run.status ?? 1);
