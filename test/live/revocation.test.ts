import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { loadConfig, resolveMasterKey } from '../../src/config.ts';
import { createContext, type Context } from '../../src/context.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { findOrCreateUser } from '../../src/modules/users/service.ts';
import { createServices } from '../../src/services.ts';
import { createSession } from '../../src/sessions/store.ts';
import { addMember } from '../helpers/factories.ts';
import { apiOf, runQuire, startQuire, type QuireProcess } from '../scale/cluster.ts';
import { liveClient, until, type LiveClient } from './clients.ts';

/**
 * Revocation across processes: two `bin/quire serve` processes on one PostgreSQL database (no Redis: each
 * serves its own sockets). A person connected live to process 1 loses their socket when their session is
 * ended, or their membership removed, through process 0. The periodic re-check is set to an hour, so only
 * the database's notices (migrations 2026-11-27-0370 and 2026-11-28-0440, heard by every process) can
 * close the sockets before the test's wait ends.
 */
describe('live sockets closed on revocation across two processes [postgres]', { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL', timeout: 600_000 }, () => {
  let database: string;
  const processes: QuireProcess[] = [];
  const clients: LiveClient[] = [];
  let db: Database;
  let ctx: Context;
  let token: string;
  let organizationId: string;
  let spaceId: string;
  let changeRequestId: string;
  let pageId: string;
  let env: Record<string, string>;
  const publicUrl = 'http://docs.example.test';
  const admin = () => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  const api = (i: number, as = token) => apiOf(processes[i].base, as);
  const remove = async (i: number, as: string, path: string) => {
    const response = await fetch(processes[i].base + path, { method: 'DELETE', headers: { authorization: `Bearer ${as}` } });
    return { status: response.status, body: await response.text() };
  };
  const wsOf = (i: number) => `${processes[i].base.replace('http', 'ws')}/v1/live`;
  const pageName = () => `${organizationId}/${spaceId}/${changeRequestId}/${pageId}`;
  const presence = () => `${organizationId}/${spaceId}/${changeRequestId}`;

  before(async () => {
    database = `quire_live_revoke_${randomBytes(5).toString('hex')}`;
    const client = admin();
    await client.connect();
    await client.query(`create database ${database}`);
    await client.end();
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${database}`;
    env = {
      QUIRE_DATABASE_URL: url.toString(),
      QUIRE_SECRET_KEY: randomBytes(32).toString('hex'),
      QUIRE_PUBLIC_URL: publicUrl,
      QUIRE_LIVE_RECHECK_SECONDS: '3600',
    };
    const init = runQuire(['init', '--org', 'Acme Docs', '--email', 'owner@example.com', '--json'], env);
    assert.equal(init.status, 0, init.stderr);
    ({ token, organization: organizationId } = JSON.parse(init.stdout));
    for (let i = 0; i < 2; i++) processes.push(await startQuire(env));
    // The test's own view of the database, to make a person and sign them in as sign-in would.
    const config = loadConfig({ ...process.env, ...env });
    db = openDatabase(config.databaseUrl);
    ctx = createContext(createServices({ config, database: db, masterKey: resolveMasterKey(config) }), null);
    const space = await api(0).post(`/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' });
    assert.equal(space.status, 201, JSON.stringify(space.body));
    spaceId = space.body.id;
    const cr = await api(0).post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Live' });
    assert.equal(cr.status, 201, JSON.stringify(cr.body));
    changeRequestId = cr.body.id;
    const page = await api(0).post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`, {
      title: 'Notes',
      document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'One.', marks: [] }] }] }] },
    });
    assert.equal(page.status, 201, JSON.stringify(page.body));
    pageId = page.body.id;
  });

  after(async () => {
    for (const client of clients) client.destroy();
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await db?.close();
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
  });

  /** A person who edits in the organization, with an API token. */
  async function editor(email: string): Promise<{ id: string; token: string }> {
    const user = await findOrCreateUser(ctx, email);
    await addMember(ctx, organizationId, user.id, 'edit');
    const created = runQuire(['token', 'create', '--email', email, '--json'], env);
    assert.equal(created.status, 0, created.stderr);
    return { id: user.id, token: JSON.parse(created.stdout).token };
  }

  const connect = (options: { name: string; token?: string; cookie?: string }) => {
    const client = liveClient({ url: wsOf(1), name: options.name, token: options.token, headers: options.cookie ? { cookie: `quire_session=${options.cookie}`, origin: publicUrl } : undefined });
    clients.push(client);
    return client;
  };

  it('closes the live sockets of a session ended through another process', async () => {
    const bea = await editor('bea@example.com');
    const { secret, session } = await createSession(ctx, { userId: bea.id, method: 'password', device: 'test', ip: '127.0.0.1' });
    const page = connect({ name: pageName(), cookie: secret });
    const tree = connect({ name: presence(), cookie: secret });
    await until('the page is open live', () => page.paragraphs()[0] === 'One.');
    await until('the presence channel is open', () => tree.provider.isAuthenticated);
    // Another of her sockets, on a token, stays: only the ended session's go.
    const kept = connect({ name: pageName(), token: bea.token });
    await until('the token client holds the page', () => kept.paragraphs()[0] === 'One.');
    const ended = await remove(0, bea.token, `/v1/user/sessions/${session.id}`);
    assert.ok(ended.status < 300, JSON.stringify(ended.body));
    await until('the ended session\'s page socket is closed', () => page.closes.some((reason) => /session|sign in|Unauthorized|authenticat/i.test(reason)), 30_000);
    await until('the ended session\'s presence socket is closed', () => tree.closes.length > 0, 30_000);
    assert.deepEqual(kept.closes, []);
  });

  it('closes the live socket of a token revoked through another process', async () => {
    const dee = await editor('dee@example.com');
    const created = await api(0, dee.token).post('/v1/user/tokens', { name: 'live' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const client = connect({ name: pageName(), token: created.body.token });
    const kept = connect({ name: pageName(), token: dee.token });
    await until('both hold the page', () => client.paragraphs()[0] === 'One.' && kept.paragraphs()[0] === 'One.');
    const revoked = await remove(0, dee.token, `/v1/user/tokens/${created.body.id}`);
    assert.ok(revoked.status < 300, revoked.body);
    await until('the revoked token\'s socket is closed', () => client.closes.length > 0, 30_000);
    assert.deepEqual(kept.closes, []);
  });

  it('closes the live socket of a person removed from the organization through another process', async () => {
    const cal = await editor('cal@example.com');
    const client = connect({ name: pageName(), token: cal.token });
    await until('the page is open live', () => client.paragraphs()[0] === 'One.');
    const owner = connect({ name: pageName(), token });
    await until('the owner holds the page', () => owner.paragraphs()[0] === 'One.');
    const removed = await remove(0, token, `/v1/orgs/${organizationId}/members/${cal.id}`);
    assert.ok(removed.status < 300, JSON.stringify(removed.body));
    await until('the removed person\'s socket is closed', () => client.closes.length > 0, 30_000);
    assert.deepEqual(owner.closes, []);
  });

  /** How many times process `i` has re-checked its live sockets (its /metrics). */
  async function rechecks(i: number): Promise<number> {
    const response = await fetch(`${processes[i].base}/metrics`);
    const match = /^quire_live_access_rechecks_total (\d+)/m.exec(await response.text());
    assert.ok(match, 'the re-check counter is on /metrics');
    return Number(match[1]);
  }

  it('a revision written through another process re-checks no socket', async () => {
    const eve = await editor('eve@example.com');
    const client = connect({ name: pageName(), token: eve.token });
    await until('the page is open live', () => client.paragraphs()[0] === 'One.');
    const before = await rechecks(1);
    const head = await api(0).get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}`);
    const document = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'One, edited.', marks: [] }] }] }] };
    const patched = await api(0).patch(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}`, { document, baseRevision: head.body.revision });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    // Process 1 has heard of the revision (it lays the API edit into the live document) ...
    await until('the API edit reaches the client', () => client.paragraphs()[0] === 'One, edited.', 30_000);
    // ... and a notice is acted on within 200 ms of its arrival: a second later, still no re-check.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(await rechecks(1), before);
    assert.deepEqual(client.closes, []);
  });

  it('turns the live sockets of a change request archived through another process read-only', async () => {
    const fay = await editor('fay@example.com');
    const cr = await api(0, fay.token).post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Archived' });
    assert.equal(cr.status, 201, JSON.stringify(cr.body));
    const page = await api(0, fay.token).post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/pages`, {
      title: 'Release',
      document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Draft.', marks: [] }] }] }] },
    });
    assert.equal(page.status, 201, JSON.stringify(page.body));
    const client = connect({ name: `${organizationId}/${spaceId}/${cr.body.id}/${page.body.id}`, token: fay.token });
    await until('the page is open live', () => client.paragraphs()[0] === 'Draft.');
    const archived = await api(0, fay.token).patch(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}`, { status: 'archived' });
    assert.equal(archived.status, 200, JSON.stringify(archived.body));
    await until('the socket is closed to reconnect read-only', () => client.closes.some((reason) => /permissions changed/.test(reason)), 30_000);
  });
});
