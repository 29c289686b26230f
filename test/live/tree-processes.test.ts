import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { apiOf, runQuire, startQuire, type QuireProcess } from '../scale/cluster.ts';
import { liveClient, until, type LiveClient } from './clients.ts';
import { needs, testRedisUrl } from '../helpers/system.ts';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.ts';

/**
 * The change request's tree followed across processes (decision 0140): two `bin/quire serve` processes on one
 * PostgreSQL database and one Redis. The tree is changed through one process's API while the clients are on
 * the other: the page deleted is stopped there with its reason, and each presence channel (one per process) is
 * told once of each change of the tree — each process tells its own connections; nothing is relayed twice.
 */
describe('the change request tree followed across two processes', { skip: (!process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL') || needs('redis'), timeout: 600_000 }, () => {
  let database: ScratchDatabase | undefined;
  const processes: QuireProcess[] = [];
  const clients: LiveClient[] = [];
  let token: string;
  let organizationId: string;
  let spaceId: string;
  let changeRequestId: string;
  const pages: Record<string, string> = {};
  const api = (i: number) => apiOf(processes[i].base, token);
  const wsOf = (i: number) => `${processes[i].base.replace('http', 'ws')}/v1/live`;
  const content = () => `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`;

  before(async () => {
    database = await createScratchDatabase('trees');
    const env = {
      QUIRE_DATABASE_URL: database.url,
      QUIRE_SECRET_KEY: randomBytes(32).toString('hex'),
      QUIRE_PUBLIC_URL: 'http://docs.example.test',
      QUIRE_REDIS_URL: testRedisUrl,
      QUIRE_LIVE_IDLE_MS: '300',
      QUIRE_LIVE_MAX_WAIT_MS: '2000',
    };
    const init = runQuire(['init', '--org', 'Acme Docs', '--email', 'owner@example.com', '--json'], env);
    assert.equal(init.status, 0, init.stderr);
    ({ token, organization: organizationId } = JSON.parse(init.stdout));
    for (let i = 0; i < 2; i++) processes.push(await startQuire(env));
    const space = await api(0).post(`/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' });
    assert.equal(space.status, 201, JSON.stringify(space.body));
    spaceId = space.body.id;
    const cr = await api(0).post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Tree' });
    assert.equal(cr.status, 201, JSON.stringify(cr.body));
    changeRequestId = cr.body.id;
    for (const title of ['Kept', 'Gone']) {
      const page = await api(0).post(`${content()}/pages`, { title });
      assert.equal(page.status, 201, JSON.stringify(page.body));
      pages[title] = page.body.id;
    }
  });

  after(async () => {
    for (const client of clients) client.destroy();
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await database?.drop();
  });

  /** A client of `name` on process `i`, with the stateless messages it receives. */
  const connect = (i: number, name: string) => {
    const client = liveClient({ url: wsOf(i), name, token });
    clients.push(client);
    const messages: string[] = [];
    client.provider.on('stateless', ({ payload }: { payload: string }) => messages.push(payload));
    return { client, messages, trees: () => messages.filter((message) => JSON.parse(message).type === 'tree').length };
  };

  it('a page deleted and a page added through one process: the clients on the other are stopped and told once each', async () => {
    const crName = `${organizationId}/${spaceId}/${changeRequestId}`;
    const gone = connect(1, `${crName}/${pages.Gone}`);
    const kept = connect(1, `${crName}/${pages.Kept}`);
    const presence = [connect(0, crName), connect(1, crName)];
    for (const { client } of [gone, kept, ...presence]) await until('the client is synced', () => client.provider.synced, 30_000);

    const removed = await fetch(`${processes[0].base}${content()}/page/${pages.Gone}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    assert.equal(removed.status, 204, await removed.text());
    await until('the deleted page is stopped on the other process', () => gone.client.closes.includes('this page was deleted from the change request.'), 30_000);
    for (const channel of presence) await until('each presence channel is told the tree changed', () => channel.trees() === 1, 30_000);
    await until('the page still in the tree is told too', () => kept.trees() === 1, 30_000);
    assert.deepEqual(kept.client.closes, []);

    const added = await api(0).post(`${content()}/pages`, { title: 'Added' });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    for (const channel of presence) await until('each presence channel is told again', () => channel.trees() === 2, 30_000);

    // A body edit moves the head but not the tree: nobody is told. The edit reaching the live page shows that
    // the head poll has run past it; a second of polls more, and still two messages each.
    const page = await api(0).get(`${content()}/page/${pages.Kept}`);
    const head = await api(0).get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}`);
    const paragraph = { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Body only.', marks: [] }] }] };
    const patched = await api(0).patch(`${content()}/page/${pages.Kept}`, { document: { ...page.body.document, nodes: [paragraph] }, baseRevision: head.body.revision });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await until('the body edit reaches the live page', () => kept.client.paragraphs().includes('Body only.'), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual([...presence.map((channel) => channel.trees()), kept.trees()], [2, 2, 2]);
  });
});
