import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { apiOf, runQuire, startQuire, type QuireProcess } from '../scale/cluster.ts';
import { liveClient, until, type LiveClient } from './clients.ts';
import { needs, testRedisUrl } from '../helpers/system.ts';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.ts';

/**
 * Three real `bin/quire serve` processes on one PostgreSQL database and one Redis (QUIRE_REDIS_URL, as
 * .ci/run starts PostgreSQL; TEST_REDIS_URL or 127.0.0.1:6379): clients on different processes edit one
 * page and converge, and the change request reads their text; a process killed with SIGKILL right after
 * acknowledging an update loses nothing (the update was stored before the acknowledgement).
 */
const redisUrl = testRedisUrl;

describe('live co-editing across three processes on one PostgreSQL and one Redis', { skip: (!process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL') || needs('redis'), timeout: 600_000 }, () => {
  let database: ScratchDatabase | undefined;
  let processes: QuireProcess[] = [];
  let token: string;
  let organizationId: string;
  const clients: LiveClient[] = [];
  const api = (i: number) => apiOf(processes[i].base, token);
  const wsOf = (i: number) => `${processes[i].base.replace('http', 'ws')}/v1/live`;
  let spaceId: string;
  let changeRequestId: string;
  let pageId: string;

  const patch = async (path: string, body: unknown) => {
    const response = await fetch(processes[0].base + path, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  const markdown = async (i = 0) => (await api(i).get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}?format=markdown`)).body.markdown as string;

  before(async () => {
    database = await createScratchDatabase('live');
    const env = {
      QUIRE_DATABASE_URL: database.url,
      QUIRE_SECRET_KEY: randomBytes(32).toString('hex'),
      QUIRE_PUBLIC_URL: 'http://docs.example.test',
      QUIRE_REDIS_URL: redisUrl,
      QUIRE_LIVE_IDLE_MS: '300',
      QUIRE_LIVE_MAX_WAIT_MS: '2000',
    };
    const init = runQuire(['init', '--org', 'Acme Docs', '--email', 'owner@example.com', '--json'], env);
    assert.equal(init.status, 0, init.stderr);
    ({ token, organization: organizationId } = JSON.parse(init.stdout));
    // One after the other: on a busy machine three compiling at once may miss the start timeout.
    for (let i = 0; i < 3; i++) processes.push(await startQuire(env));
    const space = await api(0).post(`/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' });
    assert.equal(space.status, 201, JSON.stringify(space.body));
    spaceId = space.body.id;
    const cr = await api(0).post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Live' });
    assert.equal(cr.status, 201, JSON.stringify(cr.body));
    changeRequestId = cr.body.id;
    const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
    const page = await api(0).post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`, { title: 'Notes', document: { object: 'document', data: {}, nodes: [paragraph('One.'), paragraph('Two.'), paragraph('Three.')] } });
    assert.equal(page.status, 201, JSON.stringify(page.body));
    pageId = page.body.id;
  });

  after(async () => {
    for (const client of clients) client.destroy();
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await database?.drop();
  });

  const name = () => `${organizationId}/${spaceId}/${changeRequestId}/${pageId}`;
  const connect = (i: number) => {
    const client = liveClient({ url: wsOf(i), name: name(), token });
    clients.push(client);
    return client;
  };

  it('clients on three processes type at once and converge; the change request reads their text', async () => {
    const c = [connect(0), connect(1), connect(2)];
    for (const client of c) await until('the client holds the page', () => client.paragraphs().join('|') === 'One.|Two.|Three.');
    for (let round = 0; round < 10; round++) {
      c[0].type(0, 0, 'a');
      c[1].type(1, 0, 'b');
      c[2].type(0, c[2].paragraphs()[0].length, 'c');
    }
    const expected = `${'a'.repeat(10)}One.${'c'.repeat(10)}|${'b'.repeat(10)}Two.|Three.`;
    for (const client of c) await until('every client converges', () => client.paragraphs().join('|') === expected, 30_000);
    await until('the change request reads the text', async () => (await markdown(1)) === expected.split('|').join('\n\n') + '\n', 30_000);
    for (const client of c) client.destroy();
  });

  it('loses no acknowledged update when the process a client is on is killed with SIGKILL', async () => {
    const survivor = connect(0);
    const doomed = connect(2);
    await until('both hold the page', () => survivor.paragraphs().length === 3 && doomed.paragraphs().length === 3);
    doomed.type(2, 0, 'Acknowledged before the kill. ');
    // Acknowledged: the server answered every update this client sent (it stores each before answering).
    await until('the update is acknowledged', () => doomed.provider.unsyncedChanges === 0 && doomed.provider.synced);
    processes[2].child.kill('SIGKILL');
    await processes[2].exited;
    // The killed process can no longer resend anything, nor can the client (destroyed): only the database has it.
    doomed.destroy();
    survivor.type(0, 0, 'Then. ');
    await until('the change request reads the acknowledged text', async () => (await markdown(0)).includes('Acknowledged before the kill.'), 30_000);
    const fresh = connect(1);
    await until('a new client on another process has it', () => fresh.paragraphs()[2]?.startsWith('Acknowledged before the kill.') ?? false, 30_000);
    // And an API edit made now reaches the clients still connected.
    const head = await api(0).get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}`);
    const page = await api(0).get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}`);
    const document = structuredClone(page.body.document);
    document.nodes[1].nodes[0].leaves[0].text = 'Edited through the API.';
    const patched = await patch(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}`, { document, baseRevision: head.body.revision });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    for (const client of [survivor, fresh]) await until('the API edit reaches the client', () => client.paragraphs()[1] === 'Edited through the API.', 30_000);
  });
});
