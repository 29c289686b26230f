import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { sql } from 'kysely';
import { migrateToLatest, migrationsApplied, openDatabase } from '../../src/db/database.ts';
import { migrationProvider } from '../../src/db/migration-provider.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';

const FOLDER = join(import.meta.dirname, '..', '..', 'src', 'db', 'migrations');

describe('migrations are found in their folder', () => {
  it('lists every file of src/db/migrations, in name order, with nothing else in the folder', async () => {
    const files = readdirSync(FOLDER).sort();
    const found = Object.keys(await migrationProvider.getMigrations());
    assert.deepEqual(found, files.map((name) => name.replace(/\.ts$/, '')));
    assert.ok(found.length > 20);
  });

  it('bin/quire migrate (under tsx) applies every file of the folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-migrate-'));
    try {
      const run = spawnSync(join(import.meta.dirname, '..', '..', 'bin', 'quire'), ['migrate'], {
        env: { ...process.env, QUIRE_DATA_DIR: dir, QUIRE_DATABASE_URL: '', QUIRE_LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(run.status, 0, run.stderr);
      const files = readdirSync(FOLDER).sort();
      assert.match(run.stdout, new RegExp(`^Applied ${files.length} migration\\(s\\): ${files[0]!.replace(/\.ts$/, '')}, `));
      assert.ok(run.stdout.trim().endsWith(files.at(-1)!.replace(/\.ts$/, '')), run.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const dialect of dialects) {
  describe(`readiness and migrations [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    it('answers 503 with the command to run while a migration is missing, and 200 once it is applied', async () => {
      const { db } = t.database;
      const last = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name desc limit 1`.execute(db);
      const row = last.rows[0]!;
      await sql`delete from kysely_migration where name = ${row.name}`.execute(db);
      const missing = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(missing.statusCode, 503);
      assert.match(missing.json().error.message, /bin\/quire migrate/);
      await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(db);
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200, ready.body);
    });
  });
}

if (process.env.TEST_DATABASE_URL) {
  describe('migrations while other schemas come and go [postgres]', () => {
    const url = process.env.TEST_DATABASE_URL!;
    const admin = new pg.Client({ connectionString: url });
    before(() => admin.connect());
    after(() => admin.end());

    // Kysely's own introspector calls has_schema_privilege() by name on every schema, which fails when a
    // schema is dropped while it reads (tests and tenants create and drop schemas all the time).
    it('migrates and checks readiness without failing on a schema dropped meanwhile', async () => {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      await admin.query(`create schema ${schema}`);
      const database = openDatabase(url, { schema });
      let churning = true;
      const churn = (async () => {
        const other = new pg.Client({ connectionString: url });
        await other.connect();
        try {
          for (let i = 0; churning; i++) {
            const name = `t_churn_${randomBytes(4).toString('hex')}`;
            await other.query(`create schema ${name}; create table ${name}.a (id serial primary key, b text); create table ${name}.c (d int)`);
            await other.query(`drop schema ${name} cascade`);
          }
        } finally {
          await other.end();
        }
      })();
      try {
        await migrateToLatest(database);
        for (let i = 0; i < 30; i++) {
          const fresh = openDatabase(url, { schema });
          try {
            assert.equal(await migrationsApplied(fresh), true);
            assert.deepEqual(await migrateToLatest(fresh), []);
          } finally {
            await fresh.close();
          }
        }
      } finally {
        churning = false;
        await churn;
        await database.close();
        await admin.query(`drop schema ${schema} cascade`);
      }
    });
  });
}
