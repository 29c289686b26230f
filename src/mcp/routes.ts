import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { siteByAddress, siteByHostname, type SiteAddressing } from '../published/resolve.ts';
import { serveMcp } from './handler.ts';

/**
 * Every published site answers the Model Context Protocol at `{site}/~mcp` (by path under Quire's public
 * URL, and at the root of its own hostname). Routes only route; src/mcp/handler.ts does the work.
 */
export const mcpRoutes: FastifyPluginAsync = async (app) => {
  const options = { config: { policy: 'site.readPublished' as const }, schema: { hide: true }, bodyLimit: 64 * 1024 };
  const methods = ['GET', 'POST', 'DELETE'] as const;
  const serve = (find: (request: FastifyRequest) => Promise<SiteAddressing | null>) => async (request: FastifyRequest, reply: FastifyReply) => serveMcp(request, reply, await find(request));
  app.route({ method: [...methods], url: '/sites/:organizationId/:basename/~mcp', ...options, handler: serve((request) => siteByAddress(request.ctx, request.url.replace(/\/~mcp(\?.*)?$/, ''))) });
  app.route({
    method: [...methods],
    url: '/~mcp',
    ...options,
    handler: async (request, reply) => {
      const found = await siteByHostname(request.ctx, request.headers.host, request.protocol, '/');
      if (!found) return reply.callNotFound();
      return serveMcp(request, reply, found);
    },
  });
};
