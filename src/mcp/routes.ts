import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { siteByAddress, siteByHostname, type SiteAddressing } from '../published/resolve.ts';
import { serveMcp } from './handler.ts';

/**
 * Every published site answers the Model Context Protocol at `{site}/~mcp` (by path under Quire's public
 * URL, and at the root of its own hostname), and at `{site}/~gitbook/mcp`, the address GitBook documents
 * for a published site's MCP server, so that an assistant set up for a GitBook site keeps working when the
 * site moves to Quire. Routes only route; src/mcp/handler.ts does the work.
 */
export const MCP_SUFFIXES = ['/~mcp', '/~gitbook/mcp'] as const;

export const mcpRoutes: FastifyPluginAsync = async (app) => {
  const options = { config: { policy: 'site.readPublished' as const }, schema: { hide: true }, bodyLimit: 64 * 1024 };
  const methods = ['GET', 'POST', 'DELETE'] as const;
  for (const suffix of MCP_SUFFIXES) {
    const ending = new RegExp(`${suffix.replace(/[/~]/g, '\\$&')}(\\?.*)?$`);
    app.route({
      method: [...methods],
      url: `/sites/:organizationId/:basename${suffix}`,
      ...options,
      handler: async (request: FastifyRequest, reply: FastifyReply) => serveMcp(request, reply, await siteByAddress(request.ctx, request.url.replace(ending, ''))),
    });
    app.route({
      method: [...methods],
      url: suffix,
      ...options,
      handler: async (request, reply) => {
        const found: SiteAddressing | null = await siteByHostname(request.ctx, request.headers.host, request.protocol, '/');
        if (!found) return reply.callNotFound();
        return serveMcp(request, reply, found);
      },
    });
  }
};
