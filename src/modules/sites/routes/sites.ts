import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../../http/pagination.ts';
import { replyRemoval } from '../../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../../http/schemas.ts';
import { siteLocation } from '../../../sites/urls.ts';
import { OrganizationParams } from '../../orgs/schemas.ts';
import { presentSite } from '../presenter.ts';
import { CreateSiteBody, ListSitesQuery, SiteParams, SiteSchema, UpdateSiteBody } from '../schemas.ts';
import { createSite, deleteSite, getSite, listSites, setSitePublished, updateSite } from '../service.ts';

const tags = ['sites'];
const siteResponse = { 200: SiteSchema, ...errorResponses };
const removal = { ...removalResponses, ...errorResponses };

export const sitesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites',
    {
      config: { policy: 'site.view' },
      schema: {
        tags,
        operationId: 'listSites',
        summary: 'The sites of an organization, oldest first (members; not guests)',
        params: OrganizationParams,
        querystring: ListSitesQuery,
        response: { 200: ListOf(SiteSchema), ...errorResponses },
      },
    },
    async (request) => mapPage(await listSites(request.ctx, request.params.organizationId, request.query), (view) => presentSite(request.ctx, view)),
  );

  app.post(
    '/orgs/:organizationId/sites',
    {
      config: { policy: 'site.manage' },
      schema: {
        tags,
        operationId: 'createSite',
        summary: 'Create a site, unpublished (create role): with existing spaces, a new empty space, or a sample space',
        params: OrganizationParams,
        body: CreateSiteBody,
        response: { 201: SiteSchema, ...errorResponses },
      },
      // Every member of the body is optional: a bare POST creates an untitled site.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const view = await createSite(request.ctx, request.params.organizationId, request.body);
      return reply.code(201).header('location', siteLocation(request.ctx, view.site.organization_id, view.site.id)).send(presentSite(request.ctx, view));
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId',
    {
      config: { policy: 'site.view' },
      schema: { tags, operationId: 'getSiteById', summary: 'A site', params: SiteParams, response: siteResponse },
    },
    async (request) => presentSite(request.ctx, await getSite(request.ctx, request.params.organizationId, request.params.siteId)),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId',
    {
      config: { policy: 'site.manage' },
      schema: { tags, operationId: 'updateSiteById', summary: 'Change the settings of a site (create role)', params: SiteParams, body: UpdateSiteBody, response: siteResponse },
    },
    async (request) => presentSite(request.ctx, await updateSite(request.ctx, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId',
    {
      config: { policy: 'site.delete' },
      schema: {
        tags,
        operationId: 'deleteSiteById',
        summary: 'Delete a site with its structure and share links; its spaces stay (administrators): 205 when deleted, 204 when there was none',
        params: SiteParams,
        response: removal,
      },
    },
    async (request, reply) => replyRemoval(reply, await deleteSite(request.ctx, request.params.organizationId, request.params.siteId)),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/publish',
    {
      config: { policy: 'site.admin' },
      schema: { tags, operationId: 'publishSite', summary: 'Publish a site to the audience its visibility sets (administrators)', params: SiteParams, response: siteResponse },
    },
    async (request) => presentSite(request.ctx, await setSitePublished(request.ctx, request.params.organizationId, request.params.siteId, true)),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/unpublish',
    {
      config: { policy: 'site.admin' },
      schema: { tags, operationId: 'unpublishSite', summary: 'Take a site offline (administrators)', params: SiteParams, response: siteResponse },
    },
    async (request) => presentSite(request.ctx, await setSitePublished(request.ctx, request.params.organizationId, request.params.siteId, false)),
  );
};
