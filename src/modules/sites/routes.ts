import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { replyRemoval } from '../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { siteLocation } from '../../sites/urls.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { getAdaptiveSchema, listTemplateConditions, presentAdaptiveSchema, putAdaptiveSchema } from './adaptive.ts';
import { presentPublishingAuth, presentShareLink, presentSite, shareLinkLocation } from './presenter.ts';
import { getPublishingAuth, regeneratePublishingAuth, updatePublishingAuth } from './publishing-auth.ts';
import {
  AdaptiveSchemaSchema,
  CreateShareLinkBody,
  CreateSiteBody,
  ListShareLinksQuery,
  ListSitesQuery,
  PublishingAuthSchema,
  ShareLinkParams,
  ShareLinkSchema,
  SiteParams,
  SiteSchema,
  TemplateConditionsSchema,
  UpdateAdaptiveSchemaBody,
  UpdatePublishingAuthBody,
  UpdateShareLinkBody,
  UpdateSiteBody,
} from './schemas.ts';
import { createShareLink, deleteShareLink, listShareLinks, updateShareLink } from './share-links.ts';
import { createSite, deleteSite, getSite, listSites, setSitePublished, updateSite } from './service.ts';

const tags = ['sites'];
const shareTags = ['site-share-links'];
const authTags = ['site-publishing-auth'];
const adaptiveTags = ['site-adaptive-content'];
const siteResponse = { 200: SiteSchema, ...errorResponses };
const removal = { ...removalResponses, ...errorResponses };

export const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
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

  app.get(
    '/orgs/:organizationId/sites/:siteId/share-links',
    {
      config: { policy: 'site.admin' },
      schema: {
        tags: shareTags,
        operationId: 'listSiteShareLinks',
        summary: 'The share links of a site, oldest first (administrators)',
        params: SiteParams,
        querystring: ListShareLinksQuery,
        response: { 200: ListOf(ShareLinkSchema), ...errorResponses },
      },
    },
    async (request) =>
      mapPage(await listShareLinks(request.ctx, request.params.organizationId, request.params.siteId, request.query), (view) => presentShareLink(request.ctx, view)),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/share-links',
    {
      config: { policy: 'site.admin' },
      schema: {
        tags: shareTags,
        operationId: 'createSiteShareLink',
        summary: 'Create a share link: its URL opens a share-link site (administrators)',
        params: SiteParams,
        body: CreateShareLinkBody,
        response: { 201: ShareLinkSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const view = await createShareLink(request.ctx, request.params.organizationId, request.params.siteId, request.body);
      return reply.code(201).header('location', shareLinkLocation(request.ctx, view.site, view.id)).send(presentShareLink(request.ctx, view));
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId',
    {
      config: { policy: 'site.admin' },
      schema: {
        tags: shareTags,
        operationId: 'updateSiteShareLinkById',
        summary: 'Rename a share link, or turn it off or on (administrators)',
        params: ShareLinkParams,
        body: UpdateShareLinkBody,
        response: { 200: ShareLinkSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      return presentShareLink(request.ctx, await updateShareLink(request.ctx, organizationId, siteId, shareLinkId, request.body));
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId',
    {
      config: { policy: 'site.admin' },
      schema: {
        tags: shareTags,
        operationId: 'deleteSiteShareLinkById',
        summary: 'Delete a share link: its key stops working (administrators): 205 when deleted, 204 when there was none',
        params: ShareLinkParams,
        response: removal,
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      return replyRemoval(reply, await deleteShareLink(request.ctx, organizationId, siteId, shareLinkId));
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    {
      config: { policy: 'site.admin' },
      schema: {
        tags: authTags,
        operationId: 'getSitePublishingAuthById',
        summary: 'The visitor-auth settings of a site, with the private key that signs visitor JWTs (administrators)',
        params: SiteParams,
        response: { 200: PublishingAuthSchema, ...errorResponses },
      },
    },
    async (request) => presentPublishingAuth(await getPublishingAuth(request.ctx, request.params.organizationId, request.params.siteId)),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    {
      config: { policy: 'site.admin' },
      schema: {
        tags: authTags,
        operationId: 'updateSitePublishingAuthById',
        summary: 'Change the visitor-auth settings: backend "custom" only, and the fallback URL (administrators)',
        params: SiteParams,
        body: UpdatePublishingAuthBody,
        response: { 200: PublishingAuthSchema, ...errorResponses },
      },
    },
    async (request) => presentPublishingAuth(await updatePublishingAuth(request.ctx, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate',
    {
      config: { policy: 'site.admin' },
      schema: {
        tags: authTags,
        operationId: 'regenerateSitePublishingAuthById',
        summary: 'Replace the private key of a site: JWTs signed with the old one stop working (administrators)',
        params: SiteParams,
        response: { 200: PublishingAuthSchema, ...errorResponses },
      },
    },
    async (request) => presentPublishingAuth(await regeneratePublishingAuth(request.ctx, request.params.organizationId, request.params.siteId)),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      config: { policy: 'site.view' },
      schema: {
        tags: adaptiveTags,
        operationId: 'getSiteAdaptiveSchema',
        summary: 'The visitor schema of a site (the default, with no claims, until one is set)',
        params: SiteParams,
        response: { 200: AdaptiveSchemaSchema, ...errorResponses },
      },
    },
    async (request) => presentAdaptiveSchema(await getAdaptiveSchema(request.ctx, request.params.organizationId, request.params.siteId)),
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: adaptiveTags,
        operationId: 'updateSiteAdaptiveSchema',
        summary: 'Replace the visitor schema of a site (create role)',
        params: SiteParams,
        body: UpdateAdaptiveSchemaBody,
        response: { 200: AdaptiveSchemaSchema, ...errorResponses },
      },
    },
    async (request) => presentAdaptiveSchema(await putAdaptiveSchema(request.ctx, request.params.organizationId, request.params.siteId, request.body.jsonSchema)),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema/template-conditions',
    {
      config: { policy: 'site.view' },
      schema: {
        tags: adaptiveTags,
        operationId: 'listSiteAdaptiveTemplateConditions',
        summary: 'Condition templates made from the visitor schema of a site',
        params: SiteParams,
        response: { 200: TemplateConditionsSchema, ...errorResponses },
      },
    },
    async (request) => ({ items: await listTemplateConditions(request.ctx, request.params.organizationId, request.params.siteId) }),
  );
};
