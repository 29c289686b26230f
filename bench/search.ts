/**
 * Search latency: GET /v1/spaces/{id}/search over a generated space of 10,000 pages, p50 and p95 of
 * sequential requests, for four kinds of query (a rare word, a common word, a prefix, a phrase).
 *
 * The baseline is GET /v1/spaces/{id} on the same server, one request before each search request. That
 * route is the search route without the search: the same HTTP stack, token check and space access check —
 * which is itself a trivial indexed SELECT (`spaces` by primary key) on the same database — then a small
 * presenter. Measuring both over HTTP keeps the figures what a client sees (the search is measured through
 * HTTP), and the ratio then shows what the full-text queries add over a trivial lookup. Timing the engine
 * in-process against `select id from spaces where id = ?` instead would compare ~20 µs with milliseconds,
 * a ratio dominated by nothing a client ever waits on, and would need a second database connection beside
 * the server's.
 */
import type { Context } from '../src/context.ts';
import { indexSpace } from '../src/search/indexer.ts';
import { ms, percentile, row, type Api } from './lib.ts';
import { fillSpace, type PageMaker } from './seed.ts';

/** Each page names one of these (page n: the n % 5th), so each is on 2,000 pages of 10,000. */
const COMMON = ['cluster', 'gateway', 'pipeline', 'storage', 'dashboard'];

/** Each page names two of these, picked by its number: each is on about 200 pages. Families share prefixes. */
const MEDIUM = [
  'webhook', 'token', 'session', 'cache', 'queue', 'worker', 'backup', 'snapshot', 'quota', 'tenant',
  'region', 'endpoint', 'payload', 'schema', 'audit', 'alert', 'metric', 'trace', 'firewall', 'proxy',
  'replica', 'replication', 'scheduler', 'scheduling', 'certificate', 'certification', 'migration', 'migrator', 'observer', 'observability',
  'bucket', 'volume', 'mount', 'kernel', 'container', 'image', 'registry', 'secret', 'vault', 'policy',
  'role', 'permission', 'invoice', 'billing', 'subscription', 'coupon', 'refund', 'ledger', 'currency', 'receipt',
  'timezone', 'locale', 'translation', 'glossary', 'template', 'theme', 'widget', 'sidebar', 'navbar', 'footer',
  'compression', 'encryption', 'signature', 'checksum', 'hashing', 'sharding', 'partition', 'throttle', 'latency', 'bandwidth',
  'socket', 'handshake', 'heartbeat', 'failover', 'rollback', 'hotfix', 'release', 'changelog', 'roadmap', 'milestone',
  'sprint', 'backlog', 'ticket', 'incident', 'postmortem', 'runbook', 'oncall', 'pager', 'escalation', 'uptime',
  'upload', 'download', 'archive', 'export', 'sitemap', 'redirect', 'cookie', 'header', 'anchor', 'embed',
];

/** "The {adjective} {noun}" makes the phrases: each pair is on about 50 pages, each word on many more. */
const ADJECTIVES = ['rolling', 'blue', 'green', 'canary', 'staged', 'manual', 'automatic', 'nightly', 'weekly', 'emergency'];
const NOUNS = ['upgrade', 'deploy', 'restore', 'rotation', 'cleanup', 'rebuild', 'reindex', 'rollout', 'purge', 'freeze', 'drain', 'resize', 'sync', 'warmup', 'cutover', 'handover', 'review', 'signoff', 'patch', 'build'];

/** Made-up words ("kalomi"), each on 5 pages of 10,000 (page n: the word n % 2,000). */
const RARE_WORDS = 2000;
const SYLLABLES = ['ka', 'lo', 'mi', 'ru', 'te', 'vo', 'za', 'qui', 'be', 'dri', 'fe', 'gu', 'hi', 'jo', 'nu', 'sy'];
function rareWord(k: number): string {
  return SYLLABLES[(k >> 8) & 15] + SYLLABLES[(k >> 4) & 15] + SYLLABLES[k & 15];
}

/** A deterministic pseudo-random pick, independent for each salt. */
function pick<T>(list: readonly T[], n: number, salt: number): T {
  let x = Math.imul(n + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b);
  x ^= x >>> 15;
  x = Math.imul(x, 0x2c1b3c6d);
  x ^= x >>> 12;
  x = Math.imul(x, 0x297a2d39);
  x ^= x >>> 15;
  return list[(x >>> 0) % list.length];
}

/** A page of about a kilobyte, like bench/seed.ts pageMarkdown, whose words come from the lists above. */
export const searchPage: PageMaker = (n) => {
  const common = COMMON[n % COMMON.length];
  const rare = rareWord(n % RARE_WORDS);
  const [a, b] = [pick(MEDIUM, n, 1), pick(MEDIUM, n, 2)];
  const [adjective, noun, other, adjective2] = [pick(ADJECTIVES, n, 3), pick(NOUNS, n, 4), pick(NOUNS, n, 5), pick(ADJECTIVES, n, 6)];
  const title = `${a[0].toUpperCase()}${a.slice(1)} in the ${common} ${n}`;
  const markdown = [
    `# ${title}`,
    '',
    `This page explains how the ${common} layer handles ${a} for ${rare}: what it does, how to set it up, and what to watch for.`,
    '',
    `## Setting up ${b}`,
    '',
    '1. Install the package.',
    `2. Add the ${b} configuration below.`,
    `3. Restart the ${common} service.`,
    '',
    '```yaml',
    `topic: ${n}`,
    `${a}: enabled`,
    '```',
    '',
    `## The ${adjective} ${noun}`,
    '',
    `Use the ${adjective} ${noun} when the ${other} is busy. The ${adjective2} window closes after each ${other}.`,
    '',
    '## Troubleshooting',
    '',
    `If ${rare} does not start, check the logs of the ${common} service, then read the related topics.`,
  ].join('\n');
  return { title, markdown };
};

/** The queries of each kind; the requests of a kind cycle through them. */
export const SEARCH_QUERIES: Record<string, string[]> = {
  'rare word': [17, 523, 1040, 1499, 1998].map(rareWord),
  'common word': COMMON,
  prefix: ['replic', 'sched', 'certif', 'migra', 'observ'],
  phrase: ['"rolling upgrade"', '"canary rollout"', '"nightly rebuild"', '"emergency patch"', '"blue deploy"'],
};

/** Fills the (empty) space with `count` search pages and indexes it, as the `index-space` job would; seconds taken to index. */
export async function seedSearchSpace(ctx: Context, spaceId: string, count: number): Promise<number> {
  await fillSpace(ctx, spaceId, count, searchPage);
  const started = performance.now();
  await indexSpace(ctx, spaceId);
  return (performance.now() - started) / 1000;
}

/** Milliseconds of one GET, until the whole body is read, and the body. */
async function timedGet(client: Api, path: string): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const response = await fetch(`${client.base}${path}`, { headers: { authorization: `Bearer ${client.token}` } });
  const body = await response.text();
  const elapsed = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${body}`);
  return { ms: elapsed, body };
}

/**
 * For each kind of query, `requests` sequential searches, each right after a baseline request, then one
 * row: p50 / p95 of both, and their ratios. The hit count in the row is the median `count` of the kind's queries.
 */
export async function searchLatency(client: Api, spaceId: string, requests: number): Promise<void> {
  const searchPath = (query: string) => `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`;
  const baselinePath = `/v1/spaces/${spaceId}`;
  for (const [kind, queries] of Object.entries(SEARCH_QUERIES)) {
    const counts: number[] = [];
    for (const query of queries) {
      const { body } = await timedGet(client, searchPath(query));
      const count = (JSON.parse(body) as { count: number }).count;
      if (!(count > 0)) throw new Error(`The search for ${query} found nothing: is the space indexed?`);
      counts.push(count);
      await timedGet(client, baselinePath);
    }
    const searches: number[] = [];
    const baselines: number[] = [];
    for (let i = 0; i < requests; i++) {
      baselines.push((await timedGet(client, baselinePath)).ms);
      searches.push((await timedGet(client, searchPath(queries[i % queries.length]))).ms);
    }
    const [s50, s95, b50, b95] = [percentile(searches, 50), percentile(searches, 95), percentile(baselines, 50), percentile(baselines, 95)];
    const hits = percentile(counts, 50).toLocaleString('en-US');
    row(`search: ${kind}, ${hits} hits (ms p50/p95)`, `${ms(s50)} / ${ms(s95)}`, `${ms(b50)} / ${ms(b95)}`, `${(s50 / b50).toFixed(1)} / ${(s95 / b95).toFixed(1)}`, 'vs GET /v1/spaces/{id}');
  }
}
