/**
 * Another serving process for test/access/memo.test.ts: a Quire app on the test's PostgreSQL schema,
 * listening for access changes as `quire serve` does, on a free port. Prints the port once the listener is
 * connected. GET /memo-stats tells the test how many access answers came from memory.
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../../src/app.ts';
import { accessMemoStats, listenForAccessChanges } from '../../src/db/memo.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';

const url = process.env.TEST_DATABASE_URL!;
const schema = process.env.PEER_SCHEMA!;
const config = loadConfig({ QUIRE_LOG_LEVEL: 'error', QUIRE_PUBLIC_URL: 'http://quire.test', QUIRE_DATA_DIR: '/tmp/quire-test-unused', QUIRE_RATE_LIMIT: '0' });
const database = openDatabase(url, { schema });
const app = await buildApp({ config, database, masterKey: randomBytes(32), logger: false });
app.get('/memo-stats', { config: { policy: 'public' } }, async () => ({ hits: accessMemoStats.hits }));
const listener = listenForAccessChanges(url, (error) => process.stderr.write(`access listener: ${String(error)}\n`), schema);
await app.listen({ host: '127.0.0.1', port: 0 });
while (!accessMemoStats.listening) await new Promise((resolve) => setTimeout(resolve, 20));
const address = app.server.address();
process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await listener.close();
  await app.close();
  await database.close();
  process.exit(0);
});
