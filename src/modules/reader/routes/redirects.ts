import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replyRemoval } from '../../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../../http/schemas.ts';
import { createRedirect, deleteRedirect, listRedirects, resolveRedirect, updateRedirect } from '../redirects.ts';
import { CreateRedirectBody, ListRedirectsQuery, RedirectBySourceQuery, RedirectParams, ResolvedRedirectSchema, SiteParams, SiteRedirectSchema, UpdateRedirectBody } from '../schemas.ts';

const tags = ['site-redirects'];

export const redirectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/redirects',
    {
      config: { policy: 'site.view' },
      schema: { tags, operationId: 'listSiteRedirects', summary: 'The redirects of a site, oldest first', params: SiteParams, querystring: ListRedirectsQuery, response: { 200: ListOf(SiteRedirectSchema), ...errorResponses } },
    },
    async (request) => listRedirects(request.ctx, request.params.organizationId, request.params.siteId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/redirects',
    {
      config: { policy: 'site.manage' },
      schema: { tags, operationId: 'createSiteRedirect', summary: 'Redirect a path of the site to a section, a site space or a page (the reader answers 301)', params: SiteParams, body: CreateRedirectBody, response: { 201: SiteRedirectSchema, ...errorResponses } },
    },
    async (request, reply) => reply.code(201).send(await createRedirect(request.ctx, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/redirect',
    {
      config: { policy: 'site.view' },
      schema: { tags, operationId: 'getSiteRedirectBySource', summary: 'The redirect of a source path, and the URL it leads to', params: SiteParams, querystring: RedirectBySourceQuery, response: { 200: ResolvedRedirectSchema, ...errorResponses } },
    },
    async (request) => resolveRedirect(request.ctx, request.params.organizationId, request.params.siteId, request.query.source),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId',
    {
      config: { policy: 'site.manage' },
      schema: { tags, operationId: 'updateSiteRedirectById', summary: 'Change the source or destination of a redirect', params: RedirectParams, body: UpdateRedirectBody, response: { 200: SiteRedirectSchema, ...errorResponses } },
    },
    async (request) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      return updateRedirect(request.ctx, organizationId, siteId, siteRedirectId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId',
    {
      config: { policy: 'site.manage' },
      schema: { tags, operationId: 'deleteSiteRedirectById', summary: 'Delete a redirect: 205 when deleted, 204 when there was none', params: RedirectParams, response: { ...removalResponses, ...errorResponses } },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      return replyRemoval(reply, await deleteRedirect(request.ctx, organizationId, siteId, siteRedirectId));
    },
  );
};
