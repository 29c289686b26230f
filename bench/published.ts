/**
 * The published reader's hot path: requests/second of one page of a public site with a warm cache, against
 * a bare Fastify serving the very same HTML bytes from memory (the cost of everything but rendering:
 * finding the site, the current revisions, the audience, the cache lookup, the headers). Target >= 0.8.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, row, start, stop, type Api } from './lib.ts';

export type Throughput = (url: string, headers: Record<string, string>, baselineUrl: string) => Promise<{ measured: number; baseline: number }>;

/** Publishes a public site over `spaceId`; returns the published address of the page at `pagePath`. */
export async function publishSite(client: Api, organization: string, spaceId: string, pagePath: string): Promise<string> {
  const site = await api(client, 'POST', `/v1/orgs/${organization}/sites`, { title: 'Bench Docs', visibility: 'public', spaces: [spaceId] });
  await api(client, 'POST', `/v1/orgs/${organization}/sites/${site.id}/publish`);
  const published = (await api(client, 'GET', `/v1/orgs/${organization}/sites/${site.id}`)).urls.published as string;
  const url = new URL(published);
  return `${client.base}${url.pathname}/${pagePath}`;
}

export async function publishedThroughput(pageUrl: string, port: number, dataDir: string, throughput: Throughput): Promise<void> {
  const response = await fetch(pageUrl);
  if (response.status !== 200) throw new Error(`${pageUrl}: ${response.status}`);
  const html = await response.text();
  const file = join(dataDir, 'published-page.html');
  writeFileSync(file, html);
  const baselineUrl = `http://127.0.0.1:${port}/`;
  const server = await start(process.execPath, [join(import.meta.dirname, 'static-server.mjs'), String(port), file], {}, baselineUrl);
  try {
    const result = await throughput(pageUrl, {}, baselineUrl);
    const ratio = result.measured / result.baseline;
    row(`GET published page, warm (${Math.round(html.length / 1024)} KB) (req/s)`, result.measured.toFixed(0), result.baseline.toFixed(0), ratio, '>= 0.80 of static bytes', ratio >= 0.8);
  } finally {
    await stop(server);
  }
}
