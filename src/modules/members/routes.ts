import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { replyRemoval } from '../../http/replies.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { ping } from './ping.ts';
import { presentMember } from './presenter.ts';
import { ListMembersQuery, MemberParams, MemberSchema, PingResponse, UpdateMemberBody } from './schemas.ts';
import { getMember, listMembers, removeMember, setSsoMember, updateMember } from './service.ts';

const tags = ['organization-members'];

/** An answer without a body. */

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/members',
    {
      config: { policy: 'members.list' },
      schema: {
        tags,
        operationId: 'listMembersInOrganizationById',
        summary: 'The members of an organization (not for guests)',
        params: OrganizationParams,
        querystring: ListMembersQuery,
        response: { 200: ListOf(MemberSchema), ...errorResponses },
      },
    },
    async (request) => mapPage(await listMembers(request.ctx, request.params.organizationId, request.query), (view) => presentMember(request.ctx, view)),
  );

  app.get(
    '/orgs/:organizationId/members/:userId',
    {
      config: { policy: 'members.view' },
      schema: {
        tags,
        operationId: 'getMemberInOrganizationById',
        summary: 'A member of an organization (a guest sees only their own membership)',
        params: MemberParams,
        response: { 200: MemberSchema, ...errorResponses },
      },
    },
    async (request) => presentMember(request.ctx, await getMember(request.ctx, request.params.organizationId, request.params.userId)),
  );

  app.patch(
    '/orgs/:organizationId/members/:userId',
    {
      config: { policy: 'members.update' },
      schema: {
        tags,
        operationId: 'updateMemberInOrganizationById',
        summary: 'Change the role of a member (administrators)',
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: MemberSchema, ...errorResponses },
      },
    },
    async (request) =>
      presentMember(request.ctx, await updateMember(request.ctx, request.params.organizationId, request.params.userId, request.body)),
  );

  app.delete(
    '/orgs/:organizationId/members/:userId',
    {
      config: { policy: 'members.remove' },
      schema: {
        tags,
        operationId: 'removeMemberFromOrganizationById',
        summary: 'Remove a member (administrators), or leave the organization (anyone, for themself)',
        params: MemberParams,
        response: { ...removalResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const removed = await removeMember(request.ctx, request.params.organizationId, request.params.userId);
      return replyRemoval(reply, removed);
    },
  );

  app.post(
    '/orgs/:organizationId/ping',
    {
      config: { policy: 'organization.ping' },
      schema: {
        tags,
        operationId: 'updateOrganizationMemberLastSeenAt',
        summary: 'Record that the caller is active in the organization; answers signed claims about them',
        params: OrganizationParams,
        response: { 200: PingResponse, ...errorResponses },
      },
    },
    async (request) => ({ gitbookVisitorClaims: await ping(request.ctx, request.params.organizationId) }),
  );

  app.post(
    '/orgs/:organizationId/members/:userId/sso',
    {
      config: { policy: 'members.sso' },
      schema: {
        tags,
        operationId: 'setUserAsSSOMemberForOrganization',
        summary: 'Make a user an SSO member, adding them with the default role if needed (administrators)',
        params: MemberParams,
        response: { 200: MemberSchema, ...errorResponses },
      },
    },
    async (request) => presentMember(request.ctx, await setSsoMember(request.ctx, request.params.organizationId, request.params.userId)),
  );
};
