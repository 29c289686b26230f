import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture } from './helpers.ts';
import { send, startSpecServer, type SpecServer } from './server.ts';

const QUIRE = join(import.meta.dirname, '..', '..', 'bin', 'quire');

/** Runs bin/quire (asynchronously: the description server of the test answers in this process). */
function quire(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(QUIRE, args, { env: { ...process.env, QUIRE_LOG_LEVEL: 'warn', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `quire openapi publish` on a SQLite data folder: a file, a URL, a failure, and bad arguments. */
describe('quire openapi publish', () => {
  let dir: string;
  let env: Record<string, string>;
  let org: string;
  let server: SpecServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-openapi-cli-'));
    env = { QUIRE_DATA_DIR: dir, QUIRE_IMPORT_ALLOW_PRIVATE: '1' };
    const init = await quire(['init', '--org', 'Acme', '--email', 'ada@acme.test', '--json'], env);
    assert.equal(init.code, 0, init.stderr);
    org = JSON.parse(init.stdout).organization;
    server = await startSpecServer();
    server.routes.set('/events.yaml', send(fixture('events-3.1.yaml'), 'application/yaml'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes a file, then a URL, waiting for processing', async () => {
    const file = join(dir, 'petstore.yaml');
    writeFileSync(file, fixture('petstore-3.0.yaml'));
    const first = await quire(['openapi', 'publish', '--org', org, '--spec', 'pets', file, '--json'], env);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    const printed = JSON.parse(first.stdout);
    assert.equal(printed.created, true);
    assert.equal(printed.processingState, 'complete');
    assert.ok(printed.lastVersion);
    const byUrl = await quire(['openapi', 'publish', '--org', org, '--spec', 'pets', `${server.origin}/events.yaml`], env);
    assert.equal(byUrl.code, 0, byUrl.stderr);
    assert.match(byUrl.stdout, /Updated OpenAPI specification "pets": complete, latest version /);
  });

  it('prints the error of a failed processing and exits 1; refuses bad arguments with 2', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'openapi: 3.0.3\ninfo: [\n');
    const failed = await quire(['openapi', 'publish', '--org', org, '--spec', 'broken', bad], env);
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /PARSE_ERROR/);
    const usage = await quire(['openapi', 'publish', '--org', org, bad], env);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--spec is required/);
    const slug = await quire(['openapi', 'publish', '--org', org, '--spec', 'Bad Slug', bad], env);
    assert.equal(slug.code, 1);
    assert.match(slug.stderr, /slug/);
  });
});
