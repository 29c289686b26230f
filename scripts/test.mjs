#!/usr/bin/env node
// Runs the test suite with Node's test runner: every test/**/*.test.ts file, TypeScript through tsx.
// On SQLite always; on PostgreSQL too when TEST_DATABASE_URL is set. Extra arguments are passed on
// (e.g. `npm test -- --test-name-pattern=teams`), and file paths narrow the run.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const args = process.argv.slice(2);
const files = args.filter((a) => a.endsWith('.ts'));
const flags = args.filter((a) => !a.endsWith('.ts'));
const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', ...flags, ...(files.length ? files : find('test').sort())],
  { stdio: 'inherit' },
);
process.exit(run.status ?? 1);
