import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { runQuire, startQuire } from './cluster.ts';

/** Sends a POST whose body arrives in two parts; resolves with the status and body once answered. */
function slowPost(url: string, token: string, body: string) {
  const bytes = Buffer.from(body);
  const req = request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': bytes.length } });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
  });
  req.write(bytes.subarray(0, 5));
  return { finish: () => req.end(bytes.subarray(5)), answered };
}

describe('graceful shutdown of a real process', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-shutdown-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('on SIGTERM: /readyz 503 while draining, the request in flight is answered, then exit 0', async () => {
    const env = { QUIRE_DATA_DIR: dataDir, QUIRE_DRAIN_SECONDS: '1' };
    const init = runQuire(['init', '--org', 'Acme', '--email', 'owner@example.com', '--json'], env);
    assert.equal(init.status, 0, init.stderr);
    const { token, organization } = JSON.parse(init.stdout);
    const quire = await startQuire(env);
    assert.equal((await fetch(`${quire.base}/readyz`)).status, 200);

    const inFlight = slowPost(`${quire.base}/v1/orgs/${organization}/spaces`, token, JSON.stringify({ title: 'Written while stopping' }));
    await sleep(100); // let the server read the headers: the request is in flight
    quire.child.kill('SIGTERM');
    let readiness = 0;
    for (let i = 0; i < 40 && readiness !== 503; i++) {
      readiness = (await fetch(`${quire.base}/readyz`)).status;
      if (readiness !== 503) await sleep(25);
    }
    assert.equal(readiness, 503, 'draining: not ready');
    // Once the drain time is over the server takes no new connection…
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) {
      refused = await fetch(`${quire.base}/healthz`).then(() => false, () => true);
      if (!refused) await sleep(50);
    }
    assert.ok(refused, 'no new connections after the drain');
    // …but the request in flight is still answered, and the process exits cleanly after it.
    inFlight.finish();
    const answer = await inFlight.answered;
    assert.equal(answer.status, 201, answer.body);
    assert.equal(await quire.exited, 0, quire.log.slice(-5).join('\n'));
    const db = new SQLite(join(dataDir, 'quire.db'), { readonly: true });
    try {
      assert.deepEqual(db.prepare('select title from spaces').all(), [{ title: 'Written while stopping' }]);
    } finally {
      db.close();
    }
  });
});
