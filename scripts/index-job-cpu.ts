/**
 * What the background jobs cost a large space per edit, in CPU time of this process: a space of PAGES pages
 * (default 10,000, the links bench's pages) is filled and indexed, then ROUNDS one-page edits (default 6) are
 * each indexed (`index-space`) and have their link analysis kept (`keep-link-analysis`, which the index job
 * enqueues 30 s later, once per period). Prints each job's milliseconds of CPU per edit and the kept row's size.
 *
 * `node --import tsx scripts/index-job-cpu.ts` (SQLite in a temporary folder; QUIRE_DATABASE_URL for PostgreSQL).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillSpace, withContext } from '../bench/seed.ts';
import { linkedPage } from '../bench/links.ts';
import { createSpace, editContent } from '../test/helpers/content-factory.ts';
import { indexSpaceContent, keepSpaceAnalysis } from '../src/search/changes.ts';

const pages = Number(process.env.PAGES ?? 10_000);
const rounds = Number(process.env.ROUNDS ?? 6);
const dataDir = mkdtempSync(join(tmpdir(), 'quire-index-cpu-'));
const env = { QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'warn' };
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

try {
  const init = spawnSync(join(import.meta.dirname, '..', 'bin', 'quire'), ['init', '--org', 'Bench', '--email', 'bench@example.com', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`quire init failed: ${init.stderr}`);
  const { organization } = JSON.parse(init.stdout) as { organization: string };
  await withContext(dataDir, async (ctx) => {
    const spaceId = await createSpace(ctx, organization, { title: 'Links' });
    await fillSpace(ctx, spaceId, pages, linkedPage);
    let started = cpuMs();
    await indexSpaceContent(ctx, spaceId);
    const fullIndex = cpuMs() - started;
    started = cpuMs();
    await keepSpaceAnalysis(ctx, spaceId);
    console.log(`${pages} pages: first index ${fullIndex.toFixed(0)} ms of CPU, first analysis kept ${(cpuMs() - started).toFixed(0)} ms`);
    for (let round = 0; round < rounds; round++) {
      await editContent(ctx, spaceId, (writer) => {
        const page = writer.children(writer.children()[round])[0];
        writer.updatePage(page, { markdown: `Edited ${round}: see [the next topic](topic-1.md).\n` });
      });
      started = cpuMs();
      await indexSpaceContent(ctx, spaceId);
      const index = cpuMs() - started;
      started = cpuMs();
      await keepSpaceAnalysis(ctx, spaceId);
      const keep = cpuMs() - started;
      const row = await ctx.db.selectFrom('link_analyses').select((eb) => eb.fn<number>('length', ['analysis']).as('size')).executeTakeFirst();
      console.log(`edit ${round + 1}: index-space ${index.toFixed(0)} ms of CPU, keep-link-analysis ${keep.toFixed(0)} ms (row ${((row?.size ?? 0) / 1e6).toFixed(1)} MB); load ${loadavg()[0].toFixed(1)}`);
    }
  });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
