/**
 * The first link analysis of a 10,000-page space: GET /v1/spaces/{id}/links on a freshly started server
 * (nothing of the space analysed or parsed in memory yet), from the request to the answer. Every page holds
 * three links (a page of the space by a relative path, an anchor of its own, an external address) and an
 * image-free body of about a kilobyte. The second request (the analysis kept in memory) is printed beside
 * it. Target: the first analysis in at most 0.5 s.
 *
 * `npm run bench -- links` runs it alone (BENCH_LINK_PAGES, default 10,000; BENCH_LINK_RUNS fresh servers,
 * default 3, the median printed with the spread; BENCH_LINK_INDEXED=0 leaves the space unindexed, see
 * seedLinkSpace). `npx tsx scripts/links-cpu.ts [tree …]` measures the same first request by the server's CPU
 * time as well as wall time, alternating trees (A/B/A/B) for a loaded machine, with `--profile DIR` for a
 * CPU profile of each server.
 */
import { join } from 'node:path';
import { api, median, ms, row, start, stop, type Api } from './lib.ts';
import { fillSpace, pageMarkdown, withContext, type PageMaker } from './seed.ts';
import { indexSpaceContent, keepSpaceAnalysis } from '../src/search/changes.ts';

/** A bench page with links: to the next topic (relative to its group's folder), to its own anchor, to the web. */
export const linkedPage: PageMaker = (n) => ({
  title: `Topic ${n}`,
  markdown: `${pageMarkdown(n)}\n\nSee [the next topic](topic-${n + 1}.md), [troubleshooting](#troubleshooting) and [the product site](https://example.com/topics/${n}).\n`,
});

export interface LinkBenchSetup {
  root: string;
  dataDir: string;
  env: Record<string, string>;
  client: Api;
  spaceId: string;
}

/**
 * Seeds the space (the server must be stopped); returns nothing, the pages are in the space's current
 * revision. The space is indexed as a space in use would be (every revision is, by the `index-space` job),
 * which also stores the link facts of its bodies, and has the revision's link analysis kept by the job that
 * follows it (`keep-link-analysis`; here at once, with the server's own
 * settings, `env`: the analysis is kept for the public URL it was made for, which the port decides here); BENCH_LINK_INDEXED=0 leaves it unindexed, as content
 * written before the link facts were stored is: the first server then reads every body (and stores their facts).
 */
export async function seedLinkSpace(dataDir: string, spaceId: string, pages: number, env: Record<string, string> = {}): Promise<void> {
  await withContext(
    dataDir,
    async (ctx) => {
      await fillSpace(ctx, spaceId, pages, linkedPage);
      if (process.env.BENCH_LINK_INDEXED !== '0') {
        await indexSpaceContent(ctx, spaceId);
        await keepSpaceAnalysis(ctx, spaceId); // what its keep-link-analysis job does, 30 s after the index
      }
    },
    env,
  );
}

/** Starts a fresh server `runs` times and times its first and second link listing; prints the row. */
export async function linkAnalysisTimes({ root, env, client, spaceId }: LinkBenchSetup, pages: number, runs: number): Promise<void> {
  const firsts: number[] = [];
  const seconds: number[] = [];
  let count = 0;
  for (let run = 0; run < runs; run++) {
    const quire = await start(join(root, 'bin', 'quire'), ['serve'], env, `${client.base}/readyz`);
    try {
      let started = performance.now();
      const answer = await api(client, 'GET', `/v1/spaces/${spaceId}/links?limit=1`);
      firsts.push(performance.now() - started);
      count = answer.count ?? answer.items?.length ?? 0;
      started = performance.now();
      await api(client, 'GET', `/v1/spaces/${spaceId}/links?limit=1`);
      seconds.push(performance.now() - started);
    } finally {
      await stop(quire);
    }
  }
  const first = median(firsts);
  const spread = `${ms(Math.min(...firsts))}–${ms(Math.max(...firsts))}`;
  row(`first link analysis, ${pages.toLocaleString('en-US')} pages (ms)`, ms(first), ms(median(seconds)), `${(first / 1000).toFixed(2)} s`, `<= 0.50 s (runs ${spread} ms; baseline: the same request again)`, first <= 500);
  console.log(`(link analysis: ${runs} fresh servers, median; ${count} links listed in the first answer's count)`);
}
