import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { hashToken } from '../../src/secrets.ts';
import { verifyPassword } from '../../src/sessions/passwords.ts';

/** `quire user password reset` and `quire session revoke`, run as the operator runs them (SQLite). */
const QUIRE = join(import.meta.dirname, '..', '..', 'bin', 'quire');

describe('bin/quire: passwords and sessions [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-cli-signin-'));
  const env = { ...process.env, QUIRE_DATA_DIR: dir, QUIRE_LOG_LEVEL: 'warn', QUIRE_PUBLIC_URL: 'https://docs.example.com' };
  const quire = (args: string[], input?: string) => {
    const run = spawnSync(QUIRE, args, { env, encoding: 'utf8', timeout: 60_000, input });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints a one-time reset link, or sets a password from standard input and signs the person out everywhere', async () => {
    assert.equal(quire(['init', '--org', 'Acme', '--email', 'ada@acme.test']).code, 0);
    const link = quire(['user', 'password', 'reset', '--email', 'Ada@Acme.test', '--json']);
    assert.equal(link.code, 0, link.stderr);
    const printed = JSON.parse(link.stdout);
    assert.match(printed.url, /^https:\/\/docs\.example\.com\/reset-password\/[A-Za-z0-9_-]{43}$/);
    const secret = printed.url.split('/').pop();

    const database = openDatabase(`sqlite:${join(dir, 'quire.db')}`);
    try {
      const row = await database.db.selectFrom('password_links').selectAll().executeTakeFirstOrThrow();
      assert.equal(row.token_hash, hashToken(secret), 'only the hash is stored');
      assert.equal(row.purpose, 'reset');
      const user = await database.db.selectFrom('users').select('id').where('email', '=', 'ada@acme.test').executeTakeFirstOrThrow();
      const session = { user_id: user.id, method: 'password', csrf_token: 'c', created_at: '2026-01-01T00:00:00.000Z', last_used_at: '2026-01-01T00:00:00.000Z', idle_expires_at: '2999-01-01T00:00:00.000Z', expires_at: '2999-01-01T00:00:00.000Z', device: null, ip: null };
      await database.db.insertInto('sessions').values([{ ...session, id: 's1', token_hash: 'h1' }, { ...session, id: 's2', token_hash: 'h2' }]).execute();

      const weak = quire(['user', 'password', 'reset', '--email', 'ada@acme.test', '--stdin'], 'password123\n');
      assert.equal(weak.code, 1);
      assert.match(weak.stderr, /commonly used passwords/);
      assert.ok(!weak.stderr.includes('password123'), 'the password is never printed');
      const set = quire(['user', 'password', 'reset', '--email', 'ada@acme.test', '--stdin'], 'a long and unusual passphrase\n');
      assert.equal(set.code, 0, set.stderr);
      assert.match(set.stdout, /2 sessions signed out/);
      const stored = await database.db.selectFrom('user_passwords').select('hash').where('user_id', '=', user.id).executeTakeFirstOrThrow();
      assert.equal(await verifyPassword(stored.hash, 'a long and unusual passphrase'), true);

      await database.db.insertInto('sessions').values({ ...session, id: 's3', token_hash: 'h3' }).execute();
      const revoke = quire(['session', 'revoke', '--email', 'ada@acme.test', '--json']);
      assert.equal(revoke.code, 0, revoke.stderr);
      assert.equal(JSON.parse(revoke.stdout).sessionsEnded, 1);
      assert.equal((await database.db.selectFrom('sessions').selectAll().execute()).length, 0);
      const unknown = quire(['session', 'revoke', '--email', 'nobody@acme.test']);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no user has the address nobody@acme\.test/);
      assert.equal(quire(['session', 'revoke']).code, 2);
    } finally {
      await database.close();
    }
  });
});
