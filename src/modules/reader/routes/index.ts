import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customizationRoutes } from './customization.ts';
import { fontRoutes } from './fonts.ts';
import { insightsRoutes } from './insights.ts';
import { mcpServerRoutes } from './mcp-servers.ts';
import { redirectRoutes } from './redirects.ts';
import { siteSearchRoutes } from './search.ts';

/** The reader's API: site customization, custom fonts, redirects, insights, MCP servers and site search. */
export const readerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const routes of [customizationRoutes, redirectRoutes, insightsRoutes, mcpServerRoutes, siteSearchRoutes, fontRoutes]) await app.register(routes);
};
