import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.ts';
import { until } from '../helpers/until.ts';

/**
 * PostgreSQL ends a connection Quire's pool holds idle (a restart, a terminated backend, a proxy's idle timeout):
 * the process goes on, says so once, and the next query opens another connection. Before, the pool's 'error'
 * event had no listener and Node ended the process with it.
 */
describe('an idle PostgreSQL connection ended by the server', { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL' }, () => {
  let scratch: ScratchDatabase;
  let database: Database;
  const warnings: string[] = [];
  const onWarning = (warning: Error & { code?: string }) => {
    if (warning.code === 'QUIRE_PG_IDLE_CLOSED') warnings.push(warning.message);
  };

  before(async () => {
    scratch = await createScratchDatabase('idle');
    database = openDatabase(scratch.url);
    process.on('warning', onWarning);
  });
  after(async () => {
    process.off('warning', onWarning);
    await database?.close();
    await scratch?.drop();
  });

  it('is said, and the next query is answered on another connection', async () => {
    const pid = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0].pid;
    const first = await pid();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const ended = await admin.query('select pg_terminate_backend($1) as ended', [first]);
      assert.equal(ended.rows[0].ended, true);
    } finally {
      await admin.end();
    }
    await until('the closed connection is reported', () => warnings.length > 0, 10_000);
    assert.match(warnings[0], /idle PostgreSQL connection was closed by the server/);
    const second = await pid();
    assert.notEqual(second, first);
  });
});
