import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { named } from '../../src/db/named-statements.ts';

/** A statement marked `named` is prepared once per PostgreSQL connection and run again by name (decision 0147). */
for (const dialect of dialects) {
  describe(`named statements [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    it('answers as the statement does, and PostgreSQL keeps it prepared on the connection', async () => {
      await t.ctx.db.connection().execute(async (db) => {
        for (const n of [1, 2, 3]) {
          const rows = await named(sql<{ n: number }>`select ${n} + 1 as n`).execute(db);
          assert.equal(Number(rows.rows[0].n), n + 1);
        }
        if (dialect !== 'postgres') return;
        const prepared = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db);
        const ours = prepared.rows.filter((row) => row.statement.includes('+ 1 as n'));
        assert.equal(ours.length, 1);
        assert.match(ours[0].name, /^quire_[0-9a-f]{24}$/);
        const plain = await sql<{ n: number }>`select 2 as n`.execute(db);
        assert.equal(Number(plain.rows[0].n), 2, 'other statements pass through unnamed');
      });
    });
  });
}
