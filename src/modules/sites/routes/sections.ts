import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListOf, removalResponses } from '../../../http/schemas.ts';
import { replyRemoval } from '../../../http/replies.ts';
import { moveSection } from '../moves.ts';
import { CreateSectionBody, ListSectionsQuery, MoveSectionBody, SectionParams, SiteParams, SiteSectionSchema, UpdateSectionBody, type MovePosition } from '../structure-schemas.ts';
import { createSection, deleteSection, listSections, updateSection } from '../sections.ts';

const removal = { ...removalResponses, ...errorResponses };
const sectionTags = ['site-sections'];
const base = '/orgs/:organizationId/sites/:siteId';

/** The deprecated move bodies, as service positions. */
function sectionPosition(body: MoveSectionBody): MovePosition | undefined {
  const p = body.position;
  if (!p) return undefined;
  return {
    ...(p.before && { before: { type: 'site-section', id: p.before.siteSection } }),
    ...(p.after && { after: { type: 'site-section', id: p.after.siteSection } }),
  };
}

export const sectionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${base}/sections`,
    {
      config: { policy: 'site.view' },
      schema: { tags: sectionTags, operationId: 'listSiteSections', summary: 'The sections of a site, in order (groups flattened)', params: SiteParams, querystring: ListSectionsQuery, response: { 200: ListOf(SiteSectionSchema), ...errorResponses } },
    },
    async (request) => listSections(request.ctx, request.params.organizationId, request.params.siteId, request.query),
  );

  app.post(
    `${base}/sections`,
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: sectionTags,
        operationId: 'addSectionToSite',
        summary: 'Add a section holding a space',
        description: "The site's first section first gathers the site spaces at its root into a section titled as the site, which becomes the default.",
        params: SiteParams,
        body: CreateSectionBody,
        response: { 201: SiteSectionSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createSection(request.ctx, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.patch(
    `${base}/sections/:siteSectionId`,
    {
      config: { policy: 'site.manage' },
      schema: { tags: sectionTags, operationId: 'updateSiteSectionById', summary: 'Change a section', params: SectionParams, body: UpdateSectionBody, response: { 200: SiteSectionSchema, ...errorResponses } },
    },
    async (request) => updateSection(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSectionId, request.body),
  );

  app.delete(
    `${base}/sections/:siteSectionId`,
    {
      config: { policy: 'site.manage' },
      schema: { tags: sectionTags, operationId: 'deleteSiteSectionById', summary: 'Delete a section and its site spaces', params: SectionParams, response: removal },
    },
    async (request, reply) => replyRemoval(reply, await deleteSection(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSectionId)),
  );

  app.post(
    `${base}/sections/:siteSectionId/move`,
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: sectionTags,
        operationId: 'moveSiteSection',
        summary: 'Move a section (deprecated: use sortSiteStructure)',
        description: 'Next to a section of a group, the section joins that group; next to a top-level section, it leaves its group. Without a position it goes to the end of the site.',
        params: SectionParams,
        body: MoveSectionBody,
        response: { 200: SiteSectionSchema, ...errorResponses },
      },
    },
    async (request) => moveSection(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSectionId, sectionPosition(request.body)),
  );

  // Section groups
};
