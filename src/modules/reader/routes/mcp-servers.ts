import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replyRemoval } from '../../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../../http/schemas.ts';
import { createMcpServer, deleteMcpServer, getMcpServer, listMcpServers, updateMcpServer } from '../mcp-servers.ts';
import { CreateMcpServerBody, ListMcpServersQuery, McpServerParams, SiteMcpServerSchema, SiteParams, UpdateMcpServerBody } from '../schemas.ts';

const tags = ['site-mcp-servers'];

export const mcpServerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/mcp-servers',
    {
      config: { policy: 'site.admin' },
      schema: { tags, operationId: 'listSiteMcpServers', summary: 'The MCP servers configured for a site (administrators)', params: SiteParams, querystring: ListMcpServersQuery, response: { 200: ListOf(SiteMcpServerSchema), ...errorResponses } },
    },
    async (request) => listMcpServers(request.ctx, request.params.organizationId, request.params.siteId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/mcp-servers',
    {
      config: { policy: 'site.admin' },
      schema: { tags, operationId: 'createSiteMcpServer', summary: 'Configure an MCP server for a site (administrators; headers are stored sealed)', params: SiteParams, body: CreateMcpServerBody, response: { 201: SiteMcpServerSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const created = await createMcpServer(request.ctx, request.params.organizationId, request.params.siteId, request.body);
      return reply.code(201).header('location', created.urls.location).send(created);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/mcp-servers/:siteMcpServerId',
    {
      config: { policy: 'site.admin' },
      schema: { tags, operationId: 'getSiteMcpServerById', summary: 'One MCP server of a site (administrators)', params: McpServerParams, response: { 200: SiteMcpServerSchema, ...errorResponses } },
    },
    async (request) => {
      const { organizationId, siteId, siteMcpServerId } = request.params;
      return getMcpServer(request.ctx, organizationId, siteId, siteMcpServerId);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/mcp-servers/:siteMcpServerId',
    {
      config: { policy: 'site.admin' },
      schema: { tags, operationId: 'updateSiteMcpServerById', summary: 'Change an MCP server of a site (administrators)', params: McpServerParams, body: UpdateMcpServerBody, response: { 200: SiteMcpServerSchema, ...errorResponses } },
    },
    async (request) => {
      const { organizationId, siteId, siteMcpServerId } = request.params;
      return updateMcpServer(request.ctx, organizationId, siteId, siteMcpServerId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/mcp-servers/:siteMcpServerId',
    {
      config: { policy: 'site.admin' },
      schema: { tags, operationId: 'deleteSiteMcpServerById', summary: 'Remove an MCP server: 205 when removed, 204 when there was none', params: McpServerParams, response: { ...removalResponses, ...errorResponses } },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteMcpServerId } = request.params;
      return replyRemoval(reply, await deleteMcpServer(request.ctx, organizationId, siteId, siteMcpServerId));
    },
  );
};
