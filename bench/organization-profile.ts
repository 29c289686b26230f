/**
 * Organization search in process, on a data folder seeded by `npm run bench -- organization` with
 * BENCH_DATA_DIR: the whole request through the app (inject: routing, access, search, snippets, JSON; no
 * socket), median and minimum of PROFILE_RUNS rounds of the five common words. Without the HTTP client and
 * server of the bench, so it shows what the search itself costs on a loaded machine.
 *
 * `BENCH_DATA_DIR=… node --import tsx bench/organization-profile.ts`
 *
 * On PostgreSQL it listens for access changes as `quire serve` does, so that access is answered from memory.
 *
 * PROFILE_AB=1: requests alternate between the ranking from title terms (decision 0137) and the full ranking
 * (`titleTermsPath` / `postgresTitleTermsPath` off), interleaved request by request, each side's median (min) and its answers
 * compared byte for byte. PROFILE_QUERIES=kind,kind…: the kinds of bench/search.ts's SEARCH_QUERIES to time
 * (default the common word).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig, resolveMasterKey } from '../src/config.ts';
import { openMigratedDatabase } from '../src/db/database.ts';
import { accessMemoStats, listenForAccessChanges } from '../src/db/memo.ts';
import { postgresTitleTermsPath } from '../src/search/dialects/postgres-title-terms.ts';
import { titleTermsPath } from '../src/search/dialects/sqlite-spaces.ts';
import { SEARCH_QUERIES } from './search.ts';

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR: a data folder seeded by the organization bench');
const runs = Number(process.env.PROFILE_RUNS ?? 20);
const { token, organization } = JSON.parse(readFileSync(join(dataDir, 'bench-organization.json'), 'utf8')) as { token: string; organization: string };
const config = loadConfig({ ...process.env, QUIRE_DATA_DIR: dataDir, QUIRE_RATE_LIMIT: '0' });
const { database } = await openMigratedDatabase(config);
const app = await buildApp({ config, database, masterKey: resolveMasterKey(config), logger: false });
await app.ready();
// As `quire serve` does: on PostgreSQL, access is answered from memory only while a listener is connected.
const listener = config.databaseUrl.startsWith('postgres') ? listenForAccessChanges(config.databaseUrl, (error) => console.error(error), database.schema) : null;
while (listener && !accessMemoStats.listening) await new Promise((resolve) => setTimeout(resolve, 20));

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[Math.floor(sorted.length / 2)].toFixed(2)} (${sorted[0].toFixed(2)})`;
};

const kinds = (process.env.PROFILE_QUERIES ?? 'common word').split(',');
const ab = process.env.PROFILE_AB === '1';
const request = async (word: string) => {
  const reply = await app.inject({ method: 'GET', url: `/v1/orgs/${organization}/search?query=${encodeURIComponent(word)}`, headers: { authorization: `Bearer ${token}` } });
  if (reply.statusCode !== 200) throw new Error(reply.body);
  return reply;
};
for (const kind of kinds) {
  const words = SEARCH_QUERIES[kind];
  for (const word of words) await request(word);
  const sides = ab ? [true, false] : [titleTermsPath.enabled];
  const times = new Map<boolean, number[]>(sides.map((side) => [side, []]));
  let bytes = 0;
  for (let i = 0; i < runs * words.length; i++) {
    const answers: string[] = [];
    for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
      titleTermsPath.enabled = side;
      postgresTitleTermsPath.enabled = side;
      const started = performance.now();
      const reply = await request(words[i % words.length]);
      times.get(side)!.push(performance.now() - started);
      bytes = reply.body.length;
      answers.push(reply.body);
    }
    if (answers.length === 2 && answers[0] !== answers[1]) throw new Error(`The two rankings answered ${words[i % words.length]} differently.`);
  }
  for (const [side, whole] of times) {
    const label = ab ? (side ? 'title terms' : 'full ranking') : 'request';
    console.log(`${kind}, ${label} (inject), ${words.length} words × ${runs}: median (min) ms ${stats(whole)}; answer ${bytes} bytes`);
  }
}
titleTermsPath.enabled = true;
postgresTitleTermsPath.enabled = true;
await listener?.close();
await app.close();
