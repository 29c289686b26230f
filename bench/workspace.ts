import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { header, row } from './lib.ts';

/**
 * `npm run bench -- workspace`: the workspace's first-load JavaScript, gzipped, measured on the build in
 * web/dist (`npm run build:web`): the scripts the shell loads (its entry and what it preloads), without the
 * chunks loaded on demand (the editor, the editing and review screens). Sizes are bytes, not timings.
 * The other budgets (a space interactive in 1 s, a 1,000-block page opened in 500 ms, keystroke to
 * paint p95 16 ms) are measured in Chromium and are not part of this run yet.
 */
export function workspaceFirstLoad(dist = join(import.meta.dirname, '..', 'web', 'dist')): { firstLoad: number; onDemand: Array<[string, number]> } {
  const shell = readFileSync(join(dist, 'index.html'), 'utf8');
  const loaded = [...shell.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((match) => match[1]);
  const gz = (name: string) => gzipSync(readFileSync(join(dist, 'assets', name)), { level: 9 }).length;
  const firstLoad = loaded.reduce((sum, name) => sum + gz(name), 0);
  const onDemand = readdirSync(join(dist, 'assets'))
    .filter((name) => name.endsWith('.js') && !loaded.includes(name))
    .map((name): [string, number] => [name, gz(name)]);
  return { firstLoad, onDemand };
}

export function workspaceBench(): void {
  const { firstLoad, onDemand } = workspaceFirstLoad();
  header();
  row('workspace first-load JS, gzipped (KB)', (firstLoad / 1024).toFixed(1), '-', '-', '<= 300 KB, editor loaded on demand', firstLoad <= 300 * 1024);
  for (const [name, size] of onDemand) row(`  on demand: ${name.replace(/-[\w-]+\.js$/, '')} (KB)`, (size / 1024).toFixed(1), '-', '-', 'loaded when needed');
  console.log('(measured on web/dist; run npm run build:web first. Not measured yet: space interactive, 1,000-block page open, keystroke-to-paint, in Chromium)');
}
