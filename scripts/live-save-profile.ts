/**
 * The live writer's revision write (src/live/writer.ts writeLive) on a 1,000-block page, in process: a Quire
 * app on a fresh SQLite data folder, the page opened as a live document (as the live server opens it), then
 * N rounds of "one paragraph changed, stored as a client's update, written": per round the write's time and
 * each of its steps' (timed by wrapping them), and with `--cpu-prof` the top functions by self time.
 *
 *   npx tsx scripts/live-save-profile.ts [rounds, default 10] [--cpu-prof] [--against=<module> [--against-only]]
 *
 * With `--against`, a module exporting another `writeLive` (an older writer.ts, its imports made absolute)
 * writes every other round of the same document: the two are compared in the same minutes of one process;
 * with `--against-only` it writes every round (run it alternately with a run without `--against`: since
 * decision 0133 the writer skips the stored state its last write left, which the other writer's writes in
 * between would replace). The CPU time of each write is printed with its wall time.
 *
 * Proportions are what this is for; on a loaded machine the milliseconds move with the load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Y from 'yjs';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig, resolveMasterKey } from '../src/config.ts';
import { parseMarkdown } from '../src/content/markdown/index.ts';
import { createContext } from '../src/context.ts';
import { FIELD } from '../src/live/model.ts';
import { parseLiveName } from '../src/live/names.ts';
import { appendUpdates, createLive, loadLive } from '../src/live/store.ts';
import { initialPage, writeLive } from '../src/live/writer.ts';
import { createOrganization } from '../src/modules/orgs/service.ts';
import { createPageIn } from '../src/modules/page-edits/service.ts';
import { createChangeRequest } from '../src/modules/change-requests/service.ts';
import { createSpace } from '../src/modules/spaces/service.ts';
import { openMigratedDatabase } from '../src/server.ts';
import { FolderBlobStore } from '../src/storage/blobs.ts';
import { longPage } from '../bench/workspace.ts';

const rounds = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10);
const profile = process.argv.includes('--cpu-prof');
const against = process.argv.find((a) => a.startsWith('--against='))?.slice('--against='.length);
// Every round by the other writer (a run to alternate with a run of this one): a writer that keeps what its
// last write left (the stored state it holds) is not measured fairly when the other writes in between.
const againstOnly = process.argv.includes('--against-only');
type WriteLive = typeof writeLive;
const other: WriteLive | undefined = against ? ((await import(against)) as { writeLive: WriteLive }).writeLive : undefined;

const dataDir = mkdtempSync(join(tmpdir(), 'quire-live-save-'));
const config = loadConfig({ ...process.env, QUIRE_LOG_LEVEL: 'error', QUIRE_DATA_DIR: dataDir, QUIRE_RATE_LIMIT: '0' });
const { database } = await openMigratedDatabase(config);
const app = await buildApp({ config, database, masterKey: resolveMasterKey(config), clock: systemClock, blobs: new FolderBlobStore(join(dataDir, 'blobs')), logger: false });
try {
  const operator = createContext(app.services, null);
  const { organization, owner } = await createOrganization(operator, { title: 'Bench', ownerEmail: 'bench@example.com', ownerName: 'Bench Writer' });
  const actor = { userId: owner.id, email: 'bench@example.com' };
  const ctx = createContext(app.services, actor);
  const space = (await createSpace(ctx, organization.id, { title: "Handbook" })).space;
  const cr = (await createChangeRequest(ctx, space.id, { subject: "Live" })).changeRequest;
  const target = { spaceId: space.id, changeRequestId: cr.id };
  const page = await createPageIn(ctx, target, { title: 'The long page', document: parseMarkdown(longPage(1000), {}).document });
  const name = parseLiveName(`${organization.id}/${space.id}/${cr.id}/${page.page!.page.node.id}`);
  const initial = await initialPage(ctx, name);
  const stored = await createLive(ctx, name, initial.state, initial.revision);
  const doc = new Y.Doc();
  for (const part of stored.parts) Y.applyUpdate(doc, part);
  const client = new Y.Doc();
  for (const part of stored.parts) Y.applyUpdate(client, part);
  const log = { warn: (o: object, m: string) => console.warn(m, o) };
  const session = new Session();
  if (profile) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
  }
  const times: number[] = [];
  const otherTimes: number[] = [];
  // CPU time of the process during each write (user + system): less moved by other processes' load than the wall time.
  const cpuTimes: number[] = [];
  const otherCpuTimes: number[] = [];
  for (let n = 0; n < rounds + 1; n++) {
    const before = Y.encodeStateVector(client);
    const text = (client.getXmlFragment(FIELD).get([201, 202, 203, 205, 208][n % 5]) as Y.XmlElement).get(0) as Y.XmlText;
    text.insert(text.length, ` edit ${n}`);
    const update = Y.encodeStateAsUpdate(client, before);
    await appendUpdates(ctx, [{ name, update, userId: owner.id }]);
    Y.applyUpdate(doc, update);
    if (n === 1 && profile) await session.post('Profiler.start');
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    const useOther = other !== undefined && (againstOnly || n % 2 === 1);
    await (useOther ? other : writeLive)(app.services, name, doc, actor, log);
    const cpu = process.cpuUsage(cpuBefore);
    if (n > 0) (useOther ? otherTimes : times).push(Number(process.hrtime.bigint() - started) / 1e6);
    if (n > 0) (useOther ? otherCpuTimes : cpuTimes).push((cpu.user + cpu.system) / 1e3);
  }
  if (profile) {
    const { profile: cpu } = await session.post('Profiler.stop');
    const self = new Map<string, number>();
    const total = cpu.samples!.length;
    const byId = new Map(cpu.nodes.map((node) => [node.id, node]));
    const counts = new Map<number, number>();
    for (const id of cpu.samples!) counts.set(id, (counts.get(id) ?? 0) + 1);
    for (const [id, count] of counts) {
      const node = byId.get(id)!;
      const key = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + count);
    }
    for (const [key, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${((count / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(tmpdir(), 'live-save.cpuprofile'), JSON.stringify(cpu));
  }
  const summary = (label: string, values: number[]) => {
    values.sort((a, b) => a - b);
    console.log(`${label}, 1,000 blocks, ${values.length} writes: median ${values[values.length >> 1].toFixed(1)} ms, min ${values[0].toFixed(1)} ms, max ${values[values.length - 1].toFixed(1)} ms`);
  };
  if (times.length) summary('writeLive', times);
  if (cpuTimes.length) summary('writeLive CPU time', cpuTimes);
  if (otherTimes.length) summary(`writeLive of ${against}`, otherTimes);
  if (otherCpuTimes.length) summary(`writeLive of ${against}, CPU time`, otherCpuTimes);
  console.log(`stored updates left: ${(await loadLive(ctx, name))?.size} bytes`);
} finally {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
