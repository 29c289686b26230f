import type { Selectable } from 'kysely';
import { inTransaction, nowIso, type Context } from '../../context.ts';
import { pageInCreationOrder, type Page } from '../../db/keyset.ts';
import type { SiteMcpServersTable } from '../../db/tables/sites.ts';
import { NotFound, nonBlank } from '../../errors.ts';
import { assertHttp } from '../../net/fetch.ts';
import { authorize } from '../../policy/index.ts';
import { siteLocation } from '../../sites/urls.ts';
import { siteAccess, touchSite } from '../../access/sites.ts';
import type { CreateMcpServerBody, ListMcpServersQuery, SiteMcpServer, UpdateMcpServerBody } from './schemas.ts';

/**
 * The MCP servers configured for a site (the client's site-mcp-servers): other servers a site's assistant
 * may call. Quire stores them (administrators only: their headers often carry credentials, and are kept
 * sealed) and returns them; it never calls them itself. Quire's own MCP server for the site's docs is at
 * the site's `~mcp` address (src/mcp/).
 */
type Row = Selectable<SiteMcpServersTable>;

function present(ctx: Context, organizationId: string, row: Row): SiteMcpServer {
  return {
    object: 'site-mcp-server',
    id: row.id,
    name: row.name,
    url: row.url,
    headers: JSON.parse(ctx.secrets.decrypt(row.headers_sealed).toString('utf8')) as Record<string, string>,
    urls: { location: `${siteLocation(ctx, organizationId, row.site_id)}/mcp-servers/${encodeURIComponent(row.id)}` },
  };
}

function notFound(id: string): NotFound {
  return new NotFound(`No MCP server "${id}" is configured for this site.`);
}

export async function listMcpServers(ctx: Context, organizationId: string, siteId: string, query: ListMcpServersQuery): Promise<Page<SiteMcpServer>> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.admin', actor);
  const page = await pageInCreationOrder(ctx.cursors, ctx.db.selectFrom('site_mcp_servers').selectAll().where('site_id', '=', site.id), `site-mcp:${site.id}`, query);
  return { ...page, items: page.items.map((row) => present(ctx, organizationId, row)) };
}

export async function getMcpServer(ctx: Context, organizationId: string, siteId: string, id: string): Promise<SiteMcpServer> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.admin', actor);
  const row = await ctx.db.selectFrom('site_mcp_servers').selectAll().where('id', '=', id).where('site_id', '=', site.id).executeTakeFirst();
  if (!row) throw notFound(id);
  return present(ctx, organizationId, row);
}

const NAME_HINT = 'give the name of 1 to 100 characters the site\'s assistant shows for this server.';

export async function createMcpServer(ctx: Context, organizationId: string, siteId: string, input: CreateMcpServerBody): Promise<SiteMcpServer> {
  // Quire never calls it (no address guard needed), but it must be a web address.
  assertHttp(new URL(input.url), 'The MCP server URL');
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.admin', actor);
    const row: Row = { id: tx.ids.next(), site_id: site.id, name: nonBlank(input.name, 'name', NAME_HINT), url: input.url, headers_sealed: tx.secrets.encrypt(JSON.stringify(input.headers)), created_at: nowIso(tx) };
    await tx.db.insertInto('site_mcp_servers').values(row).execute();
    await touchSite(tx, site.id);
    return present(tx, organizationId, row);
  });
}

export async function updateMcpServer(ctx: Context, organizationId: string, siteId: string, id: string, patch: UpdateMcpServerBody): Promise<SiteMcpServer> {
  if (patch.url !== undefined) assertHttp(new URL(patch.url), 'The MCP server URL');
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.admin', actor);
    const row = await tx.db.selectFrom('site_mcp_servers').selectAll().where('id', '=', id).where('site_id', '=', site.id).executeTakeFirst();
    if (!row) throw notFound(id);
    const changes: Partial<Row> = {};
    if (patch.name !== undefined) changes.name = nonBlank(patch.name, 'name', NAME_HINT);
    if (patch.url !== undefined) changes.url = patch.url;
    if (patch.headers !== undefined) changes.headers_sealed = tx.secrets.encrypt(JSON.stringify(patch.headers));
    if (Object.keys(changes).length) {
      await tx.db.updateTable('site_mcp_servers').set(changes).where('id', '=', row.id).execute();
      await touchSite(tx, site.id);
    }
    return present(tx, organizationId, { ...row, ...changes });
  });
}

export async function deleteMcpServer(ctx: Context, organizationId: string, siteId: string, id: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.admin', actor);
    const result = await tx.db.deleteFrom('site_mcp_servers').where('id', '=', id).where('site_id', '=', site.id).executeTakeFirst();
    const removed = Number(result.numDeletedRows) > 0;
    if (removed) await touchSite(tx, site.id);
    return removed;
  });
}
