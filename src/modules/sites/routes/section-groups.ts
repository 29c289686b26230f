import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListOf, removalResponses } from '../../../http/schemas.ts';
import { replyRemoval } from '../../../http/replies.ts';
import { moveGroup } from '../moves.ts';
import { AddSectionToGroupBody, CreateGroupBody, GroupParams, GroupSectionParams, ListGroupsQuery, MoveGroupBody, SiteParams, SiteSectionGroupSchema, UpdateGroupBody } from '../structure-schemas.ts';
import { addSectionToGroup, createGroup, deleteGroup, listGroups, removeSectionFromGroup, updateGroup } from '../section-groups.ts';

const removal = { ...removalResponses, ...errorResponses };
const groupTags = ['site-section-groups'];
const base = '/orgs/:organizationId/sites/:siteId';

export const sectionGroupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
};
