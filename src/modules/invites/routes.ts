import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { replyRemoval } from '../../http/replies.ts';
import { createLinkInvite, deleteLinkInvite, getLinkInvite, joinWithInvite, listLinkInvites, updateLinkInvite } from './links.ts';
import { presentInviteLink, presentPendingInvitation } from './presenter.ts';
import {
  JoinedSchema,
  UpdateLinkInviteBody,
  CreateLinkInviteBody,
  InviteLinkSchema,
  InviteParams,
  InviteUsersBody,
  InviteUsersResult,
  ListLinkInvitesQuery,
  OrganizationParams,
  PendingInvitationSchema,
} from './schemas.ts';
import { inviteUsers } from './service.ts';
import { mailSignInLinks } from './mail.ts';
import { declineInvitation, myPendingInvitations } from './pending.ts';
import { Type } from 'typebox';

const tags = ['organization-invites'];

export const inviteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/invites',
    {
      config: { policy: 'invites.manage' },
      schema: {
        tags,
        operationId: 'inviteUsersToOrganization',
        summary: 'Add people to an organization by e-mail address (administrators)',
        params: OrganizationParams,
        body: InviteUsersBody,
        response: { 200: InviteUsersResult, ...errorResponses },
      },
    },
    async (request) => {
      const result = await inviteUsers(request.ctx, request.params.organizationId, request.body);
      return mailSignInLinks(request.server.mailer, request.log, result.organizationTitle ?? '', `${request.ctx.config.publicUrl}/account`, result);
    },
  );

  app.post(
    '/orgs/:organizationId/link-invites',
    {
      config: { policy: 'invites.manage' },
      schema: {
        tags,
        operationId: 'createOrganizationInvite',
        summary: 'Create an invite link to the organization (administrators; invite links must be turned on)',
        params: OrganizationParams,
        body: CreateLinkInviteBody,
        response: { 201: InviteLinkSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(presentInviteLink(await createLinkInvite(request.ctx, request.params.organizationId, request.body))),
  );

  app.get(
    '/orgs/:organizationId/link-invites',
    {
      config: { policy: 'invites.manage' },
      schema: {
        tags,
        operationId: 'listOrganizationInviteLinks',
        summary: 'The invite links of an organization, newest first (administrators)',
        params: OrganizationParams,
        querystring: ListLinkInvitesQuery,
        response: { 200: ListOf(InviteLinkSchema), ...errorResponses },
      },
    },
    async (request) => mapPage(await listLinkInvites(request.ctx, request.params.organizationId, request.query), presentInviteLink),
  );

  app.get(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      config: { policy: 'invites.manage' },
      schema: {
        tags,
        operationId: 'getOrganizationInviteLink',
        summary: 'An invite link (administrators)',
        params: InviteParams,
        response: { 200: InviteLinkSchema, ...errorResponses },
      },
    },
    async (request) => presentInviteLink(await getLinkInvite(request.ctx, request.params.organizationId, request.params.inviteId)),
  );

  app.patch(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      config: { policy: 'invites.manage' },
      schema: {
        tags,
        operationId: 'updateOrganizationInviteById',
        summary: 'Change the role an invite link gives (administrators)',
        params: InviteParams,
        body: UpdateLinkInviteBody,
        response: { 200: InviteLinkSchema, ...errorResponses },
      },
    },
    async (request) => presentInviteLink(await updateLinkInvite(request.ctx, request.params.organizationId, request.params.inviteId, request.body)),
  );

  app.post(
    '/orgs/:organizationId/invites/:inviteId',
    {
      // The invite link's id is its secret: anyone signed in who holds it may join.
      config: { policy: 'authenticated' },
      schema: {
        tags,
        operationId: 'joinOrganizationWithInvite',
        summary: 'Join the organization through an invite link, with the role it gives (a member is raised to it, never lowered); or accept an invitation made for the caller by address',
        params: InviteParams,
        response: { 200: JoinedSchema, ...errorResponses },
      },
    },
    async (request) => {
      await joinWithInvite(request.ctx, request.params.organizationId, request.params.inviteId);
      return {};
    },
  );

  app.delete(
    '/orgs/:organizationId/invites/:inviteId',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        operationId: 'declineOrganizationInvitation',
        summary: 'Quire\'s own: decline an invitation made for the caller by address (205 when declined, 204 when there was none)',
        params: InviteParams,
        response: { ...removalResponses, ...errorResponses },
      },
    },
    async (request, reply) => replyRemoval(reply, await declineInvitation(request.ctx, request.params.organizationId, request.params.inviteId)),
  );

  app.get(
    '/user/invitations',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        operationId: 'listMyInvitations',
        summary: 'Quire\'s own: the invitations waiting for the caller\'s answer, newest first',
        response: { 200: Type.Object({ items: Type.Array(PendingInvitationSchema) }), ...errorResponses },
      },
    },
    async (request) => ({ items: (await myPendingInvitations(request.ctx)).map(presentPendingInvitation) }),
  );

  app.delete(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      config: { policy: 'invites.manage' },
      schema: {
        tags,
        operationId: 'deleteOrganizationInviteById',
        summary: 'Delete an invite link (administrators): 205 when deleted, 204 when there was none',
        params: InviteParams,
        response: { ...removalResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const deleted = await deleteLinkInvite(request.ctx, request.params.organizationId, request.params.inviteId);
      return replyRemoval(reply, deleted);
    },
  );
};
