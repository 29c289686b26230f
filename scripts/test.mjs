#!/usr/bin/env node
// Runs the test suite with Node's test runner: every test/**/*.test.ts file. The files to run are first built into one
// bundle of plain JavaScript (scripts/test-bundle.mjs: a few seconds for all of them, once per run), and the runner
// runs the bundle's files, with source maps on, named by their sources in its output (scripts/test-reporter.mjs), in
// test-times.txt and in what held a stopped process: no TypeScript is compiled through tsx's loader hooks in the
// test files' processes: about 0.9 s of CPU less for a file that builds the app on this machine (decision 0145).
// QUIRE_TEST_BUNDLE=0 runs the .ts files through tsx instead, as before.
// On SQLite always; on PostgreSQL too when TEST_DATABASE_URL is set. Extra arguments are passed on
// (e.g. `npm test -- --test-name-pattern=teams`), and file paths narrow the run.
//
// Node's runner starts the files in the order of their paths (it sorts them; an order given here is not kept: a
// simulation with a full run's times found that slowest-first would end it 21 s sooner in 56 minutes, not worth a
// runner of our own). QUIRE_TEST_CONCURRENCY sets how many files run at once (default 3 on this project's 2-core
// CI machine: the browser, git and CLI files spend much of their time waiting on Chromium, git and child processes). --typecheck (what `npm test` passes) runs
// `tsc -p .` and `tsc -p web` beside the tests, and the run fails when either does.
//
// Each file's process has QUIRE_TEST_FILE_SECONDS (default 600; the slowest, the fuzz file, took 387 s three at a time on
// CI's slower machine) to end:
// past it the runner stops the process and the file fails, so a test or a handle that never ends fails the run
// with its file named instead of holding it until CI's own limit. What held a stopped process open is printed at
// the end (scripts/test-times.mjs writes it just before the limit).
//
// Each file's wall time and CPU time (its own and its child processes': bin/quire, git, Chromium) are written to
// test-artifacts/test-times.txt (test-times-node<major>.txt on another Node), and the slowest and the CPU by folder are printed. Where it goes (decision 0144): a file that builds the
// app spends some 5-8 s of CPU loading modules before its first test; a browser file's Chromium (one per file,
// test/helpers/chromium.ts) about 40% of the file's CPU; the two type-checks some 40 s together. Decision 0145 took
// the module loading down by running the bundle.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildTestBundle, builtPath } from './test-bundle.mjs';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const args = process.argv.slice(2);
const typecheck = args.includes('--typecheck');
const named = args.filter((a) => a.endsWith('.ts')).map((f) => relative(root, resolve(f)));
const flags = args.filter((a) => !a.endsWith('.ts') && a !== '--typecheck');
const files = named.length ? named : find('test');

const concurrency = Number(process.env.QUIRE_TEST_CONCURRENCY ?? 3);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`QUIRE_TEST_CONCURRENCY must be a whole number of files at once, 1 or more (it is ${process.env.QUIRE_TEST_CONCURRENCY})`);
  process.exit(2);
}

const fileSeconds = Number(process.env.QUIRE_TEST_FILE_SECONDS ?? 600);
if (!(fileSeconds > 10)) {
  console.error(`QUIRE_TEST_FILE_SECONDS must be a number of seconds above 10 (it is ${process.env.QUIRE_TEST_FILE_SECONDS})`);
  process.exit(2);
}

const artifacts = join(root, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });
// Each run gathers its files' times apart (runs may overlap), then writes them to test-artifacts/.
const timesDir = mkdtempSync(join(tmpdir(), 'quire-test-times-'));
const timesFile = join(timesDir, 'times.txt');
const stillRunning = join(timesDir, 'still-running');

/** Runs a command to its end; its output is kept and shown afterwards (the type-checks), or passed through (the tests). */
function run(command, commandArgs, { quiet = false, env = process.env } = {}) {
  return new Promise((done) => {
    const child = spawn(command, commandArgs, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    let output = '';
    if (quiet) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('close', (code, signal) => done({ code: code ?? 1, signal, output }));
  });
}

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const checks = typecheck
  ? [
      run(process.execPath, [tsc, '--noEmit', '-p', '.'], { quiet: true }).then((r) => ({ ...r, name: 'tsc -p .' })),
      run(process.execPath, [tsc, '--noEmit', '-p', 'web'], { quiet: true }).then((r) => ({ ...r, name: 'tsc -p web' })),
    ]
  : [];

// The test files run from one bundle built now (scripts/test-bundle.mjs, decision 0145), unless QUIRE_TEST_BUNDLE=0:
// then through tsx, as before.
const bundled = process.env.QUIRE_TEST_BUNDLE !== '0';
const bundleDir = join(root, '.tmp', `test-bundle-${process.pid}`);
let testFiles = files;
let loader = ['--import', 'tsx'];
const testEnv = { ...process.env, QUIRE_TEST_TIMES: timesFile, QUIRE_TEST_FILE_SECONDS: String(fileSeconds), QUIRE_TEST_STILL_RUNNING: stillRunning };
if (bundled) {
  const built = await buildTestBundle(files, bundleDir);
  console.log(`== ${files.length} test files bundled in ${built.seconds.toFixed(1)} s (${built.sources} sources, ${built.outputs} files; QUIRE_TEST_BUNDLE=0 runs them through tsx)`);
  process.on('exit', () => rmSync(bundleDir, { recursive: true, force: true }));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1));
  testFiles = files.map((file) => builtPath(bundleDir, join(root, file)));
  loader = ['--enable-source-maps'];
  testEnv.QUIRE_TEST_BUNDLE_DIR = bundleDir;
  // Node's reporter, with the bundle's files named by their sources (unless the run names a reporter of its own).
  if (!flags.some((flag) => flag.startsWith('--test-reporter'))) {
    flags.push(`--test-reporter=${pathToFileURL(join(root, 'scripts', 'test-reporter.mjs')).href}`, '--test-reporter-destination=stdout');
  }
}

const started = Date.now();
const tests = await run(
  process.execPath,
  [
    '--import', pathToFileURL(join(root, 'scripts', 'test-preload.mjs')).href,
    ...loader, '--import', pathToFileURL(join(root, 'scripts', 'test-times.mjs')).href,
    '--test', `--test-concurrency=${concurrency}`, `--test-timeout=${fileSeconds * 1000}`, ...flags, ...testFiles,
  ],
  { env: testEnv },
);
const wall = (Date.now() - started) / 1000;

let failed = tests.code !== 0;
if (existsSync(stillRunning)) {
  for (const name of readdirSync(stillRunning)) console.error(`\n== ${readFileSync(join(stillRunning, name), 'utf8')}`);
}
for (const check of await Promise.all(checks)) {
  if (check.code === 0) continue;
  failed = true;
  console.error(`\n== ${check.name} failed:\n${check.output}`);
}

// The files' times: the slowest and the totals.
const times = (existsSync(timesFile) ? readFileSync(timesFile, 'utf8') : '')
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const [file, seconds, cpu] = line.split('\t');
    return { file, wall: Number(seconds), cpu: Number(cpu) };
  });
rmSync(timesDir, { recursive: true, force: true });
// Named by Node's major version: CI's second run (the current LTS, scripts/test-node-lts.sh) keeps the first's.
const major = process.versions.node.split('.')[0];
const timesName = major === '20' ? 'test-times.txt' : `test-times-node${major}.txt`;
writeFileSync(join(artifacts, timesName), times.map((t) => `${t.file}\t${t.wall}\t${t.cpu}\n`).join(''));
if (times.length > 1) {
  const cpu = times.reduce((sum, t) => sum + t.cpu, 0);
  const slowest = [...times].sort((a, b) => b.wall - a.wall).slice(0, 10);
  console.log(`\n== ${times.length} test files in ${wall.toFixed(0)} s, ${concurrency} at once; ${cpu.toFixed(0)} s of CPU time. Slowest (wall s / CPU s):`);
  for (const t of slowest) console.log(`   ${t.wall.toFixed(1).padStart(6)} ${t.cpu.toFixed(1).padStart(6)}  ${t.file}`);
  // CPU by folder of test/: where a run's time goes, kept in CI's log.
  const byFolder = new Map();
  for (const t of times) {
    const folder = t.file.split('/').slice(0, -1).join('/') || '.';
    const entry = byFolder.get(folder) ?? { cpu: 0, files: 0 };
    entry.cpu += t.cpu;
    entry.files += 1;
    byFolder.set(folder, entry);
  }
  console.log('   CPU s by folder (files):');
  for (const [folder, entry] of [...byFolder].sort((a, b) => b[1].cpu - a[1].cpu)) console.log(`   ${entry.cpu.toFixed(0).padStart(6)}  ${folder} (${entry.files})`);
}
process.exit(failed ? 1 : 0);
