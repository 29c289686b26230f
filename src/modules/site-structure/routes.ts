import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { replyRemoval } from '../../http/replies.ts';
import { SiteSchema } from '../sites/schemas.ts';
import { moveGroup, moveSection, moveSiteSpace, sortStructure } from './moves.ts';
import { loadStructureView, presentStructure } from './presenter.ts';
import { getPublishedSite } from './published.ts';
import {
  AddSectionToGroupBody,
  CreateGroupBody,
  CreateSectionBody,
  CreateSiteSpaceBody,
  GroupParams,
  GroupSectionParams,
  ListGroupsQuery,
  ListSectionsQuery,
  ListSiteSpacesQuery,
  MoveGroupBody,
  MoveSectionBody,
  MoveSiteSpaceBody,
  PublishedQuery,
  SectionParams,
  ShareKeyQuery,
  SiteParams,
  SiteSectionGroupSchema,
  SiteSectionSchema,
  SiteSpaceParams,
  SiteSpaceSchema,
  SiteStructureItemSchema,
  SiteStructureSchema,
  SortStructureBody,
  UpdateGroupBody,
  UpdateSectionBody,
  UpdateSiteSpaceBody,
  type MovePosition,
} from './schemas.ts';
import { addSectionToGroup, createGroup, deleteGroup, listGroups, removeSectionFromGroup, updateGroup } from './section-groups.ts';
import { createSection, deleteSection, listSections, updateSection } from './sections.ts';
import { createSiteSpace, deleteSiteSpace, listSiteSpaces, updateSiteSpace } from './site-spaces.ts';
import { structureAccess } from './placement.ts';

const removal = { ...removalResponses, ...errorResponses };
const sectionTags = ['site-sections'];
const groupTags = ['site-section-groups'];
const siteSpaceTags = ['site-spaces'];
const structureTags = ['site-structure'];
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
function siteSpacePosition(body: MoveSiteSpaceBody): MovePosition | undefined {
  const p = body.position;
  if (!p) return undefined;
  return {
    ...(p.before && { before: { type: 'site-space', id: p.before.siteSpace } }),
    ...(p.after && { after: { type: 'site-space', id: p.after.siteSpace } }),
  };
}

const PublishedContentSiteSchema = Type.Object({
  object: Type.Literal('published-content-site'),
  site: SiteSchema,
  structure: SiteStructureSchema,
  customizations: Type.Object({
    site: Type.Unsafe<object>({ type: 'object', additionalProperties: true, description: 'SiteCustomizationSettings (Quire serves the defaults).' }),
    siteSpaces: Type.Record(Type.String(), Type.Unsafe<object>({ type: 'object', additionalProperties: true })),
  }),
  scripts: Type.Array(Type.Unsafe<object>({ type: 'object', additionalProperties: true }), { description: 'Integration scripts: always empty.' }),
});

export const siteStructureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Sections

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

  app.get(
    `${base}/section-groups`,
    {
      config: { policy: 'site.view' },
      schema: { tags: groupTags, operationId: 'listSiteSectionGroups', summary: 'The section groups of a site, in order', params: SiteParams, querystring: ListGroupsQuery, response: { 200: ListOf(SiteSectionGroupSchema), ...errorResponses } },
    },
    async (request) => listGroups(request.ctx, request.params.organizationId, request.params.siteId, request.query),
  );

  app.post(
    `${base}/section-groups`,
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: groupTags,
        operationId: 'addSectionGroupToSite',
        summary: 'Create a section group',
        description: 'The group takes the place of the first listed section (else goes at the end); the listed sections move into it in the given order.',
        params: SiteParams,
        body: CreateGroupBody,
        response: { 201: SiteSectionGroupSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createGroup(request.ctx, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.patch(
    `${base}/section-groups/:siteSectionGroupId`,
    {
      config: { policy: 'site.manage' },
      schema: { tags: groupTags, operationId: 'updateSiteSectionGroupById', summary: 'Change a section group', params: GroupParams, body: UpdateGroupBody, response: { 200: SiteSectionGroupSchema, ...errorResponses } },
    },
    async (request) => updateGroup(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId, request.body),
  );

  app.delete(
    `${base}/section-groups/:siteSectionGroupId`,
    {
      config: { policy: 'site.manage' },
      schema: { tags: groupTags, operationId: 'deleteSiteSectionGroupById', summary: 'Delete a section group (its sections stay, where the group was)', params: GroupParams, response: removal },
    },
    async (request, reply) => replyRemoval(reply, await deleteGroup(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId)),
  );

  app.post(
    `${base}/section-groups/:siteSectionGroupId/sections`,
    {
      config: { policy: 'site.manage' },
      schema: { tags: groupTags, operationId: 'addSectionToGroup', summary: 'Append a section to a group', params: GroupParams, body: AddSectionToGroupBody, response: { 201: SiteSectionGroupSchema, ...errorResponses } },
    },
    async (request, reply) =>
      reply.code(201).send(await addSectionToGroup(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId, request.body)),
  );

  app.delete(
    `${base}/section-groups/:siteSectionGroupId/sections/:siteSectionId`,
    {
      config: { policy: 'site.manage' },
      schema: { tags: groupTags, operationId: 'removeSectionFromGroup', summary: 'Take a section out of a group (to the top level, right after the group)', params: GroupSectionParams, response: removal },
    },
    async (request, reply) =>
      replyRemoval(reply, await removeSectionFromGroup(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId, request.params.siteSectionId)),
  );

  app.post(
    `${base}/section-groups/:siteSectionGroupId/move`,
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: groupTags,
        operationId: 'moveSiteSectionGroup',
        summary: 'Move a section group (deprecated: use sortSiteStructure)',
        description: 'Next to a section or a group at the top level (a section inside a group stands for its group). Without a position it goes to the end.',
        params: GroupParams,
        body: MoveGroupBody,
        response: { 200: SiteSectionGroupSchema, ...errorResponses },
      },
    },
    async (request) => moveGroup(request.ctx, request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId, request.body.position),
  );

  // Site spaces

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

  app.get(
    `${base}/structure`,
    {
      config: { policy: 'site.view' },
      schema: { tags: structureTags, operationId: 'getSiteStructure', summary: 'The complete structure of a site', params: SiteParams, querystring: ShareKeyQuery, response: { 200: SiteStructureSchema, ...errorResponses } },
    },
    async (request) => {
      const site = await structureAccess(request.ctx, request.params.organizationId, request.params.siteId, 'site.view');
      return presentStructure(request.ctx, await loadStructureView(request.ctx, site, request.query.shareKey));
    },
  );

  app.patch(
    `${base}/structure/sort`,
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: structureTags,
        operationId: 'sortSiteStructure',
        summary: 'Move a site space, section or section group',
        params: SiteParams,
        body: SortStructureBody,
        response: { 200: SiteStructureItemSchema, ...errorResponses },
      },
    },
    async (request) => sortStructure(request.ctx, request.params.organizationId, request.params.siteId, request.body),
  );

  // The published profile

  app.get(
    `${base}/published`,
    {
      config: { policy: 'site.readPublished' },
      schema: {
        tags: ['sites'],
        operationId: 'getPublishedContentSite',
        summary: 'The complete profile of a published site, for its audience',
        description:
          'Open to members of the organization (even unpublished), to anyone for public and unlisted published sites, to holders of an active share key (`shareKey`) for share-link sites, and, a Quire extension, to visitors carrying a visitor JWT signed with the site\'s key (`jwt_token`) for visitor-auth sites. The structure leaves out sections and site spaces whose condition does not hold for the visitor\'s claims. Anyone else gets 404.',
        params: SiteParams,
        querystring: PublishedQuery,
        response: { 200: PublishedContentSiteSchema, ...errorResponses },
      },
    },
    async (request) => getPublishedSite(request.ctx, request.params.organizationId, request.params.siteId, request.query),
  );
};
