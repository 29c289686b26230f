import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { after, describe, it } from 'node:test';

/**
 * On a machine without Apertium, Chromium, git or nginx, `npm test` never waits for them: a test that needs
 * one skips with one line naming it when CI is unset, and fails at once when CI is set. Checked two ways:
 * every test file that uses one of them asks for it (test/helpers/system.ts), and test files run with a
 * PATH that holds nothing but node behave so.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** What in a test file's source shows that it needs a package. */
const USES: Array<[pkg: string, pattern: RegExp]> = [
  ['apertium', /QUIRE_TRANSLATION_ENGINE: 'apertium'|execFileSync\('apertium'/],
  ['chromium', /from 'playwright-core'/],
  ['git', /from '\.\.\/git\/server\.ts'|startGitServer|createGitTestApp/],
  ['nginx', /\bnginx\b.*spawn|spawn\(NGINX/],
];

describe('tests that need a system package', () => {
  const bin = mkdtempSync(join(tmpdir(), 'quire-bare-path-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  after(() => rmSync(bin, { recursive: true, force: true }));

  it('ask for it with needs(), in every file that uses it', () => {
    const unasked: string[] = [];
    for (const file of testFiles(join(ROOT, 'test'))) {
      if (file === import.meta.filename) continue;
      const source = readFileSync(file, 'utf8');
      for (const [pkg, pattern] of USES) {
        if (pattern.test(source) && !new RegExp(`needs\\([^)]*'${pkg}'`).test(source)) unasked.push(`${relative(ROOT, file)} uses ${pkg}`);
      }
    }
    assert.deepEqual(unasked, []);
  });

  /** Runs one test file as `npm test` would, with PATH holding only node. */
  const run = (file: string, env: Record<string, string>) => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['CI', 'TEST_DATABASE_URL', 'NODE_TEST_CONTEXT', 'QUIRE_TEST_CHROMIUM'].includes(name)));
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], {
      cwd: ROOT,
      env: { ...base, PATH: bin, ...env },
      encoding: 'utf8',
      // A guard only: a test that waited for the missing program would be stopped here and fail below.
      timeout: 240_000,
    });
    assert.equal(child.signal, null, `${file} finished by itself:\n${child.stdout}${child.stderr}`);
    return { status: child.status, output: child.stdout + child.stderr };
  };

  const cases: Array<[pkg: string, file: string, env: Record<string, string>]> = [
    ['apertium', 'test/translations/apertium.test.ts', {}],
    ['git', 'test/git/cli.test.ts', {}],
    ['chromium', 'test/openapi/browser.test.ts', {}],
    // The proxy test needs PostgreSQL before nginx; an address that is never dialled lets it reach the check.
    ['nginx', 'test/scale/proxy.test.ts', { TEST_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }],
  ];
  for (const [pkg, file, env] of cases) {
    it(`${file} without ${pkg}: skips naming it, or fails at once in CI`, () => {
      const developer = run(file, env);
      assert.equal(developer.status, 0, developer.output);
      assert.match(developer.output, new RegExp(`# SKIP needs ${pkg}: `), developer.output);
      assert.match(developer.output, /# pass 0/);

      const ci = run(file, { ...env, CI: 'true' });
      assert.notEqual(ci.status, 0, ci.output);
      assert.match(ci.output, new RegExp(`needs ${pkg}: .*CI must have it`), ci.output);
    });
  }

  // CI runs the browser files on Debian's chromium-headless-shell (decision 0144): a CI machine with only the full
  // chromium fails at once naming the shell, instead of running every file on the dearer browser. (A stand-in
  // `chromium` that is never started: the check looks for the commands on PATH.)
  it('test/openapi/browser.test.ts in CI with the full chromium but no chromium-headless-shell: fails at once naming the shell', () => {
    writeFileSync(join(bin, 'chromium'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    try {
      const ci = run('test/openapi/browser.test.ts', { CI: 'true', PATH: bin });
      assert.notEqual(ci.status, 0, ci.output);
      assert.match(ci.output, /needs chromium: the chromium-headless-shell command is not on PATH \(apt-get install chromium-headless-shell\); CI must have it/, ci.output);
    } finally {
      rmSync(join(bin, 'chromium'));
    }
  });
});
