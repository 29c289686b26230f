/**
 * `npm run fuzz -- [--requests N] [--seed S] [--database postgres://…] [--progress N]`: fuzzes every operation of Quire's
 * OpenAPI document against a fresh database (in-memory SQLite, or a new schema of the PostgreSQL server
 * named by --database or TEST_DATABASE_URL), prints each distinct failure with a replayable request, and
 * exits 1 when there was any. Without --seed a random seed is drawn and printed. --progress N prints a line
 * every N requests (5,000 by default): a long run on a busy machine then shows how far it got.
 */
import { parseArgs } from 'node:util';
import { randomInt } from 'node:crypto';
import { createTestApp } from '../../test/helpers/app.ts';
import { Fuzzer } from './engine.ts';

const usage = 'usage: npm run fuzz -- [--requests N] [--seed S] [--database postgres://…] [--progress N]';
let values;
try {
  ({ values } = parseArgs({
    options: { requests: { type: 'string' }, seed: { type: 'string' }, database: { type: 'string' }, progress: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const requests = values.requests === undefined ? 5000 : Number(values.requests);
const seed = values.seed === undefined ? randomInt(2 ** 31) : Number(values.seed);
const progressEvery = values.progress === undefined ? 5000 : Number(values.progress);
if (!Number.isInteger(requests) || requests < 1 || !Number.isInteger(seed) || !Number.isInteger(progressEvery) || progressEvery < 1) {
  console.error(`--requests and --progress must be positive integers and --seed an integer\n${usage}`);
  process.exit(2);
}
if (values.database) process.env.TEST_DATABASE_URL = values.database;
const dialect = values.database ? 'postgres' : 'sqlite';

console.log(`fuzzing on ${dialect} with seed ${seed}, ${requests} requests (replay: npm run fuzz -- --seed ${seed} --requests ${requests}${values.database ? ' --database …' : ''})`);
const t = await createTestApp(dialect);
const fuzzer = await Fuzzer.create(t);
const result = await fuzzer.run({ requests, seed, log: (line) => console.log(line), progressEvery });
console.log(`ran ${result.sent} requests over ${result.operations} operations (${result.succeeded} answered 2xx at least once) on ${dialect}, seed ${seed}`);
console.log(`statuses: ${Object.entries(result.byStatus).sort().map(([s, n]) => `${s}×${n}`).join(' ')}`);
if (result.neverSucceeded.length > 0) console.log(`never 2xx: ${result.neverSucceeded.join(', ')}`);
const failures = Object.entries(result.failureCounts);
if (failures.length > 0) {
  console.log(`${failures.length} distinct failures:`);
  for (const [key, count] of failures) console.log(`  ${count}× ${key}`);
}
// Answers that break the public client's document (checked by the test app's contract hook) fail the run too.
const violations = t.violations.length;
if (violations > 0) {
  const kinds = [...new Set(t.violations.map((v) => v.replace(/\{"[^]*$/, '').slice(0, 200)))];
  console.log(`(${t.violations.length} answers differ from the client's OpenAPI document, ${kinds.length} kinds:\n  ${kinds.join('\n  ')})`);
}
t.violations.length = 0;
await t.close();
process.exit(failures.length > 0 || violations > 0 ? 1 : 0);
