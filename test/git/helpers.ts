import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../../src/context.ts';
import type { DialectName } from '../../src/db/database.ts';
import { runDueJobs } from '../../src/jobs/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/** A test app whose data folder (the cached clones) is a fresh temporary folder, allowed to reach 127.0.0.1. */
export async function createGitTestApp(dialect: DialectName, env: Record<string, string> = {}): Promise<TestApp & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-git-data-'));
  const t = await createTestApp(dialect, { QUIRE_DATA_DIR: dataDir, QUIRE_IMPORT_ALLOW_PRIVATE: '1', ...env });
  const close = t.close;
  return {
    ...t,
    dataDir,
    close: async () => {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs the job queue until nothing is due (Git operations, and the search indexing they cause). */
export async function runJobs(ctx: Context): Promise<number> {
  let ran = 0;
  for (;;) {
    const report = await runDueJobs(ctx, { workerId: 'git-test', onError: (error) => { throw error; } });
    if (report.claimed === 0) return ran;
    ran += report.claimed;
  }
}

/** The latest operation of a space, read from the database. */
export async function lastOperation(ctx: Context, spaceId: string) {
  return ctx.db.selectFrom('git_operations').selectAll().where('space_id', '=', spaceId).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
}
