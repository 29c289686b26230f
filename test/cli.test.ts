import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createScratchDatabase } from './helpers/scratch-database.ts';

const QUIRE = join(import.meta.dirname, '..', 'bin', 'quire');

function quire(args: string[], env: Record<string, string>) {
  const run = spawnSync(QUIRE, args, { env: { ...process.env, QUIRE_LOG_LEVEL: 'warn', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const targets: Array<[string, () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>]> = [
  ['sqlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-cli-'));
    return { env: { QUIRE_DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }],
];
if (process.env.TEST_DATABASE_URL) {
  targets.push(['postgres', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-cli-'));
    const db = await createScratchDatabase('cli');
    return {
      env: { QUIRE_DATA_DIR: dir, QUIRE_DATABASE_URL: db.url },
      cleanup: async () => {
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }]);
}

for (const [dialect, setUp] of targets) {
  describe(`bin/quire [${dialect}]`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups) await cleanup();
    });

    it('init creates the organization and an admin token, prints one JSON object with --json, and refuses a second time', async () => {
      const { env, cleanup } = await setUp();
      cleanups.push(cleanup);
      const first = quire(['init', '--org', 'Acme Docs', '--email', 'Ada@Acme.test', '--name', 'Ada', '--json'], env);
      assert.equal(first.code, 0, first.stderr);
      const printed = JSON.parse(first.stdout);
      assert.match(printed.token, /^qrt_[A-Za-z0-9_-]{43}$/);
      assert.equal(first.stdout.trim().split('\n').length, 1, 'stdout is exactly one JSON object');

      const again = quire(['init', '--org', 'Other', '--email', 'bob@acme.test'], env);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /already initialised/);

      const token = quire(['token', 'create', '--email', 'bob@acme.test', '--name', 'Bob', '--json'], env);
      assert.equal(token.code, 0, token.stderr);
      const bob = JSON.parse(token.stdout);
      assert.match(bob.token, /^qrt_/);
      assert.notEqual(bob.token, printed.token);
      assert.equal(bob.created, true);

      const org = quire(['org', 'create', '--title', 'Second', '--owner', 'bob@acme.test', '--json'], env);
      assert.equal(org.code, 0, org.stderr);
      assert.ok(JSON.parse(org.stdout).organization);

      const human = quire(['token', 'create', '--email', 'bob@acme.test'], env);
      assert.equal(human.code, 0);
      assert.match(human.stdout, /API token \(shown once/);
    });

    it('only serve, migrate and init make a database: every other command refuses, naming where it looked', async () => {
      const { env, cleanup } = await setUp();
      cleanups.push(cleanup);
      const commands = [
        ['token', 'create', '--email', 'ada@acme.test'],
        ['token', 'list', '--email', 'ada@acme.test'],
        ['token', 'revoke', 'tok'],
        ['org', 'create', '--title', 'Acme', '--owner', 'ada@acme.test'],
        ['gc', '--dry-run'],
        ['import', env.QUIRE_DATA_DIR, '--space', 'space'],
        ['openapi', 'publish', '--org', 'org', '--spec', 'pets', join(env.QUIRE_DATA_DIR, 'pets.yaml')],
        ['git', 'status', '--space', 'space'],
      ];
      for (const args of commands) {
        const run = quire(args, env);
        assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
        assert.match(run.stderr, new RegExp(`^quire ${args[0]}: no Quire database at `), args.join(' '));
        if (dialect === 'sqlite') assert.ok(run.stderr.includes(join(env.QUIRE_DATA_DIR, 'quire.db')), `${args.join(' ')} names the file it looked for: ${run.stderr}`);
        assert.doesNotMatch(run.stderr, /does not exist|not found/i, 'no misleading message about the organization or space');
      }
      assert.deepEqual(readdirSync(env.QUIRE_DATA_DIR), [], 'no database and no key file were made');
      // From another folder, the default ./data is resolved against the current folder and named as such.
      const elsewhere = spawnSync(QUIRE, ['token', 'list', '--email', 'ada@acme.test'], { cwd: env.QUIRE_DATA_DIR, env: { ...process.env, ...env, QUIRE_DATA_DIR: '', QUIRE_LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 60_000 });
      assert.equal(elsewhere.status, 1);
      if (dialect === 'sqlite') assert.ok(elsewhere.stderr.includes(join(env.QUIRE_DATA_DIR, 'data', 'quire.db')), elsewhere.stderr);
      assert.ok(!existsSync(join(env.QUIRE_DATA_DIR, 'data')), 'no data folder was made in the current folder');

      const migrated = quire(['migrate'], env);
      assert.equal(migrated.code, 0, migrated.stderr);
      const listed = quire(['token', 'list', '--email', 'ada@acme.test'], env);
      assert.doesNotMatch(listed.stderr, /no Quire database/, 'after migrate the database is found');
    });

    it('refuses bad arguments with a usage message and exit code 2', async () => {
      const { env, cleanup } = await setUp();
      cleanups.push(cleanup);
      const missing = quire(['init', '--org', 'Acme'], env);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--email is required/);
      const bad = quire(['token', 'create', '--email', 'not-an-address'], env);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /must be an e-mail address/);
      const unknown = quire(['frobnicate'], env);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /Unknown command/);
      const config = quire(['migrate'], { ...env, PORT: 'eighty' });
      assert.equal(config.code, 2);
      assert.match(config.stderr, /PORT must be a whole number/);
    });

    it('serve says how to run init on an empty database, then serves the token that init printed', async () => {
      const { env, cleanup } = await setUp();
      cleanups.push(cleanup);
      // Any free port (PORT=0): the address comes from the "Server listening at" line, so no other process can hold it.
      const server = spawn(QUIRE, ['serve'], { env: { ...process.env, ...env, PORT: '0', QUIRE_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let log = '';
      server.stdout.on('data', (chunk) => (log += chunk));
      server.stderr.on('data', (chunk) => (log += chunk));
      const exited = new Promise((resolve) => server.once('exit', resolve));
      try {
        let ready = false;
        let base = '';
        // Up to a minute: a loaded machine (CI with other jobs) can be slow to start a process.
        for (let i = 0; i < 300 && !ready && server.exitCode === null; i++) {
          base ||= /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log)?.[1] ?? '';
          ready = base !== '' && (await fetch(`${base}/readyz`).then((r) => r.ok, () => false));
          if (!ready) await new Promise((r) => setTimeout(r, 200));
        }
        assert.ok(ready, `serve did not become ready: ${log}`);
        assert.match(log, /bin\/quire init --org/);
        const init = quire(['init', '--org', 'Acme', '--email', 'ada@acme.test', '--json'], env);
        const { token, organization } = JSON.parse(init.stdout);
        const reply = await fetch(`${base}/v1/orgs/${organization}`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(reply.status, 200);
        assert.equal((await reply.json()).title, 'Acme');
        assert.ok(!log.includes(token), 'the token never appears in the log');
      } finally {
        if (server.exitCode === null) server.kill('SIGTERM');
        await exited;
      }
    });
  });
}
