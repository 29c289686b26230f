/**
 * Where the time of a zip import goes, in one process: the import bench's editions (bench/import.ts, a new
 * edition each, so each is a first import) imported one after the other into fresh spaces of an in-memory
 * SQLite database through the service's own steps — the data: URL read (`readSource`), `openZip`,
 * `importFileSet` (entries inflated, layout, every page's references read on the worker pool), `prepareImport`
 * (pages laid, bodies hashed and stored, tree built) and the transaction that commits the revision. For each
 * import it prints the wall at the end of each step (ms from the start) and the CPU of each thread of the
 * process from /proc (Linux; clock ticks of 10 ms), grouped:
 *
 * - `main`: the event loop's thread;
 * - `pool`: threads started during the imports (the worker pool's threads: the Markdown read);
 * - `process`: threads that existed before the first import (V8's platform threads — concurrent and parallel
 *   garbage collection, optimizing compilation for every isolate, the workers' included — and libuv's pool).
 *
 *   node --import tsx bench/import-phases.ts [imports=8]
 *
 * The first imports of a process cost more than the later ones: the pool's threads start and load the
 * reader in the first, and V8 optimizes the reader's code in each worker as it runs in the next ones (run
 * with `--trace-opt` to count the functions compiled per import). Run with `--cpu-prof` for every thread's profile.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpuUsage } from 'node:process';
import { inTransaction } from '../src/context.ts';
import { lockSpaceHead, setSpaceHead } from '../src/content/head.ts';
import { importFileSet } from '../src/imports/fileset.ts';
import { DEFAULT_LIMITS, Deadline } from '../src/imports/limits.ts';
import { readSource, type ImportEnvironment } from '../src/imports/source.ts';
import { AssetCollector } from '../src/imports/types.ts';
import { commitImport, prepareImport } from '../src/imports/write.ts';
import { openZip } from '../src/imports/zip.ts';
import { createTestApp } from '../test/helpers/app.ts';
import { createWorld, postSpace } from '../test/helpers/factories.ts';
import { dataUrl } from '../test/imports/helpers.ts';
import { buildImportZip } from './import.ts';

const imports = Number(process.argv[2] ?? 8) || 8;
const TICK_MS = 10;

/** CPU ms of each thread of this process, by thread id. */
function threadCpu(): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return cpu;
}

const app = await createTestApp('sqlite');
const { ctx } = app;
const world = await createWorld(ctx, app.app, app.clock);
const before = new Set(threadCpu().keys());
for (let i = 0; i < imports; i++) {
  const created = await postSpace(app.clock, world.admin, world.organizationId, { title: `Import ${i + 1}` });
  const spaceId = (created as { id: string }).id;
  const url = dataUrl('application/zip', buildImportZip(i + 1));
  const threadsBefore = threadCpu();
  const cpuBefore = cpuUsage();
  const started = performance.now();
  const marks: string[] = [];
  const mark = (step: string) => marks.push(`${step} ${(performance.now() - started).toFixed(0)}`);

  const deadline = new Deadline(DEFAULT_LIMITS.timeoutMs);
  const env: ImportEnvironment = { limits: DEFAULT_LIMITS, signal: deadline.signal, allowPrivate: false, workers: ctx.config.workers };
  const file = await readSource(url, env, 'application/zip');
  mark('source');
  const set = await openZip(file.bytes, DEFAULT_LIMITS);
  mark('openZip');
  const content = await importFileSet(set, { assets: new AssetCollector(ctx.blobs), env });
  mark('fileset');
  deadline.dispose();
  const space = await ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
  const prepared = await prepareImport(ctx, content, { baseRevisionId: space.revision_id, spaceId });
  mark('prepare');
  await inTransaction(ctx, async (tx) => {
    const current = await lockSpaceHead(tx, spaceId);
    const result = await commitImport(tx, prepared, spaceId);
    await setSpaceHead(tx, spaceId, result.revisionId, { expected: current });
  });
  mark('commit');

  const cpu = cpuUsage(cpuBefore);
  const groups = { main: 0, pool: 0, process: 0 };
  for (const [tid, ms] of threadCpu()) {
    const spent = ms - (threadsBefore.get(tid) ?? 0);
    if (tid === process.pid) groups.main += spent;
    else if (before.has(tid)) groups.process += spent;
    else groups.pool += spent;
  }
  console.log(`import ${i + 1}: ${marks.join(', ')} ms; CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms (main ${groups.main}, pool ${groups.pool}, process ${groups.process})`);
  // The next import starts on a quiet event loop, as the bench's imports do.
  await new Promise((resolve) => setTimeout(resolve, 300));
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; loadavg ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
await app.close();
process.exit(0);
