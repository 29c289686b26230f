import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Context } from '../context.ts';
import { loadTree } from '../content/tree.ts';
import { locate, type SiteView } from '../published/model.ts';
import { firstDocumentUnder, firstPage, isHidden } from '../published/navigation.ts';
import { pathSegments, type CurrentContent } from '../published/resolve.ts';
import { searchSite } from '../published/search.ts';
import { llmsTxt, pageMarkdown } from '../published/seo.ts';

/**
 * The MCP server of one published site, for one reader: three tools over exactly what that reader sees in
 * the HTML — `search` (the site's search), `read_page` (a page as Markdown, `if` blocks and expressions
 * evaluated for the reader's claims) and `list_pages` (the llms.txt index). Sections and site spaces the
 * reader's claims do not open are not in the view at all; hidden pages are neither found nor read.
 */

export interface DocsReader {
  ctx: Pick<Context, 'db' | 'dialect'>;
  view: SiteView;
  live: Map<string, CurrentContent>;
  claims: Record<string, unknown>;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const failure = (value: string) => ({ content: [{ type: 'text' as const, text: value }], isError: true });

/** The page a URL or path of the site names, if this reader may read it. */
async function findPage(reader: DocsReader, address: string) {
  const { view, live } = reader;
  let path = address.trim();
  try {
    if (/^https?:\/\//i.test(path)) path = new URL(path).pathname;
  } catch {
    return null;
  }
  if (view.root && (path === view.root || path.startsWith(`${view.root}/`))) path = path.slice(view.root.length);
  const segments = pathSegments(path.replace(/\.md$/i, ''));
  if (!segments) return null;
  const located = locate(view, segments);
  const content = located ? live.get(located.variant.spaceId) : undefined;
  if (!located || !content) return null;
  const tree = await loadTree(reader.ctx, content.root);
  const rest = located.rest.join('/');
  const found = rest === '' ? firstPage(tree) : tree.byPath.get(rest);
  const page = found && found.node.type !== 'link' ? firstDocumentUnder(found) : undefined;
  if (!page || isHidden(tree, page)) return null;
  return { tree, page };
}

export function docsServer(reader: DocsReader): McpServer {
  const { view } = reader;
  const server = new McpServer(
    { name: `quire-docs`, title: view.title, version: '1.0.0' },
    { instructions: `Documentation of "${view.title}". Search it with "search", then read pages with "read_page" (give the URL a result names).` },
  );

  server.registerTool(
    'search',
    {
      title: `Search ${view.title}`,
      description: 'Search the documentation. Returns the best matching pages with their URLs and the passages that match.',
      inputSchema: { query: z.string().min(1).max(200).describe('Words to look for; "quoted phrases" match exactly.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query }) => {
      const results = await searchSite(reader.ctx, view, reader.live, query);
      if (results.length === 0) return text(`No page of ${view.title} matches "${query}".`);
      const lines = results.map((r) => {
        const sections = r.sections.map((s) => `  - ${s.title ? `${s.title}: ` : ''}${s.snippet}`).join('\n');
        return `- ${r.title}${r.place ? ` (${r.place})` : ''}\n  URL: ${view.origin}${r.url}${sections ? `\n${sections}` : ''}`;
      });
      return text(`${results.length} page(s) of ${view.title} match "${query}":\n\n${lines.join('\n')}`);
    },
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a page',
      description: 'Read one page of the documentation as Markdown, by its URL or its path in the site.',
      inputSchema: { url: z.string().min(1).max(2048).describe('The page\'s URL (as search results give it) or its path, e.g. /getting-started/install.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ url }) => {
      const found = await findPage(reader, url);
      if (!found) return failure(`There is no page at "${url}" in ${view.title}. Use "search" or "list_pages" to find one.`);
      return text(await pageMarkdown(reader.ctx, found.tree, found.page, reader.claims));
    },
  );

  server.registerTool(
    'list_pages',
    {
      title: 'List the pages',
      description: 'The index of the documentation: every page with its Markdown URL and description (llms.txt).',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => text(await llmsTxt(reader.ctx, view, reader.live)),
  );

  return server;
}
