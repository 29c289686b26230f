import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../../http/pagination.ts';
import { replyRemoval } from '../../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../../http/schemas.ts';
import { presentShareLink, shareLinkLocation } from '../presenter.ts';
import { CreateShareLinkBody, ListShareLinksQuery, ShareLinkParams, ShareLinkSchema, SiteParams, UpdateShareLinkBody } from '../schemas.ts';
import { createShareLink, deleteShareLink, listShareLinks, updateShareLink } from '../share-links.ts';

const shareTags = ['site-share-links'];
const removal = { ...removalResponses, ...errorResponses };

export const shareLinksRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
};
