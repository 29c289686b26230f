import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListOf, removalResponses } from '../../../http/schemas.ts';
import { replyRemoval } from '../../../http/replies.ts';
import { moveSiteSpace } from '../moves.ts';
import { CreateSiteSpaceBody, ListSiteSpacesQuery, MoveSiteSpaceBody, SiteParams, SiteSpaceParams, SiteSpaceSchema, UpdateSiteSpaceBody, type MovePosition } from '../structure-schemas.ts';
import { createSiteSpace, deleteSiteSpace, listSiteSpaces, updateSiteSpace } from '../site-spaces.ts';

const removal = { ...removalResponses, ...errorResponses };
const siteSpaceTags = ['site-spaces'];
const base = '/orgs/:organizationId/sites/:siteId';

function siteSpacePosition(body: MoveSiteSpaceBody): MovePosition | undefined {
  const p = body.position;
  if (!p) return undefined;
  return {
    ...(p.before && { before: { type: 'site-space', id: p.before.siteSpace } }),
    ...(p.after && { after: { type: 'site-space', id: p.after.siteSpace } }),
  };
}

export const siteSpacesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${base}/site-spaces`,
    {
      config: { policy: 'site.view' },
      schema: { tags: siteSpaceTags, operationId: 'listSiteSpaces', summary: 'The site spaces of a site, in order', params: SiteParams, querystring: ListSiteSpacesQuery, response: { 200: ListOf(SiteSpaceSchema), ...errorResponses } },
    },
    async (request) => listSiteSpaces(request.ctx, request.params.organizationId, request.params.siteId, request.query),
  );

  app.post(
    `${base}/site-spaces`,
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: siteSpaceTags,
        operationId: 'addSpaceToSite',
        summary: 'Publish a space in a site',
        description: 'Without sectionId the space goes to the default section, or to the root of a site without sections.',
        params: SiteParams,
        body: CreateSiteSpaceBody,
        response: { 201: SiteSpaceSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createSiteSpace(request.ctx, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.patch(
    `${base}/site-spaces/:siteSpaceId`,
    {
      config: { policy: 'site.manage' },
      schema: { tags: siteSpaceTags, operationId: 'updateSiteSpaceById', summary: 'Change a site space', params: SiteSpaceParams, body: UpdateSiteSpaceBody, response: { 200: SiteSpaceSchema, ...errorResponses } },
    },
    async (request) => updateSiteSpace(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSpaceId, request.body),
  );

  app.delete(
    `${base}/site-spaces/:siteSpaceId`,
    {
      config: { policy: 'site.manage' },
      schema: { tags: siteSpaceTags, operationId: 'deleteSiteSpaceById', summary: 'Remove a site space', params: SiteSpaceParams, response: removal },
    },
    async (request, reply) => replyRemoval(reply, await deleteSiteSpace(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSpaceId)),
  );

  app.post(
    `${base}/site-spaces/:siteSpaceId/move`,
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: siteSpaceTags,
        operationId: 'moveSiteSpace',
        summary: 'Move a site space within its section or the site root (deprecated: use sortSiteStructure)',
        params: SiteSpaceParams,
        body: MoveSiteSpaceBody,
        response: { 200: SiteSpaceSchema, ...errorResponses },
      },
    },
    async (request) => moveSiteSpace(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSpaceId, siteSpacePosition(request.body)),
  );

  // The whole structure
};
