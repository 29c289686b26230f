import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { errorResponses, ListOf, NoContent, removalResponses } from '../../http/schemas.ts';
import { replyNoContent, replyRemoval } from '../../http/replies.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { updateTeamMembers } from './bulk-members.ts';
import { presentTeamMember } from './member-presenter.ts';
import { TeamMemberItemSchema } from './member-schemas.ts';
import { listTeamMembers, putTeamMember, removeTeamMember } from './members-service.ts';
import { presentMemberTeam, presentTeam } from './presenter.ts';
import { listMemberTeams } from './member-teams.ts';
import { ListMemberTeamsQuery, MemberParams } from '../members/schemas.ts';
import {
  MemberTeamSchema,
  CreateTeamBody,
  ListTeamMembersQuery,
  ListTeamsQuery,
  PutTeamMemberBody,
  TeamMemberParams,
  TeamParams,
  TeamSchema,
  UpdateTeamBody,
  UpdateTeamMembersBody,
} from './schemas.ts';
import { createTeam, deleteTeam, getTeam, listTeams, updateTeam } from './service.ts';

const tags = ['teams'];
const memberTags = ['team-members'];
const removal = { ...removalResponses, ...errorResponses };

export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/teams',
    {
      config: { policy: 'teams.list' },
      schema: { tags, operationId: 'listTeamsInOrganizationById', summary: 'The teams of an organization', params: OrganizationParams, querystring: ListTeamsQuery, response: { 200: ListOf(TeamSchema), ...errorResponses } },
    },
    async (request) => mapPage(await listTeams(request.ctx, request.params.organizationId, request.query), (view) => presentTeam(request.ctx, view)),
  );

  app.put(
    '/orgs/:organizationId/teams',
    {
      config: { policy: 'teams.create' },
      schema: { tags, operationId: 'createOrganizationTeam', summary: 'Create a team (administrators)', params: OrganizationParams, body: CreateTeamBody, response: { 201: TeamSchema, ...errorResponses } },
    },
    async (request, reply) => reply.code(201).send(presentTeam(request.ctx, await createTeam(request.ctx, request.params.organizationId, request.body))),
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { policy: 'team.view' },
      schema: { tags, operationId: 'getTeamInOrganizationById', summary: 'A team', params: TeamParams, response: { 200: TeamSchema, ...errorResponses } },
    },
    async (request) => presentTeam(request.ctx, await getTeam(request.ctx, request.params.organizationId, request.params.teamId)),
  );

  app.patch(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { policy: 'team.manage' },
      schema: { tags, operationId: 'updateTeamInOrganizationById', summary: 'Rename a team (administrators and team owners)', params: TeamParams, body: UpdateTeamBody, response: { 200: TeamSchema, ...errorResponses } },
    },
    async (request) => presentTeam(request.ctx, await updateTeam(request.ctx, request.params.organizationId, request.params.teamId, request.body)),
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { policy: 'teams.delete' },
      schema: { tags, operationId: 'removeTeamFromOrganizationById', summary: 'Delete a team and its memberships (administrators)', params: TeamParams, response: removal },
    },
    async (request, reply) => replyRemoval(reply, await deleteTeam(request.ctx, request.params.organizationId, request.params.teamId)),
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      config: { policy: 'team.view' },
      schema: {
        tags: memberTags,
        operationId: 'listTeamMembersInOrganizationById',
        summary: 'The members of a team, with their roles',
        params: TeamParams,
        querystring: ListTeamMembersQuery,
        response: { 200: ListOf(TeamMemberItemSchema), ...errorResponses },
      },
    },
    async (request) =>
      mapPage(await listTeamMembers(request.ctx, request.params.organizationId, request.params.teamId, request.query), (view) => presentTeamMember(request.ctx, view)),
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      config: { policy: 'team.manage' },
      schema: {
        tags: memberTags,
        operationId: 'updateMembersInOrganizationTeam',
        summary: 'Add, remove and change the role of team members at once (a user in both "add" and "remove" is removed)',
        params: TeamParams,
        body: UpdateTeamMembersBody,
        response: { 204: NoContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      await updateTeamMembers(request.ctx, request.params.organizationId, request.params.teamId, request.body);
      return replyNoContent(reply);
    },
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      config: { policy: 'team.manage' },
      schema: {
        tags: memberTags,
        operationId: 'addMemberToOrganizationTeamById',
        summary: 'Add a member to a team, or change their role in it',
        params: TeamMemberParams,
        body: PutTeamMemberBody,
        response: { 204: NoContent, ...errorResponses },
      },
      // The body is optional here (a bare PUT adds the user as a member): validate a missing one as {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await putTeamMember(request.ctx, organizationId, teamId, userId, request.body);
      return replyNoContent(reply);
    },
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      config: { policy: 'team.removeMember' },
      schema: { tags: memberTags, operationId: 'deleteMemberFromOrganizationTeamById', summary: 'Remove a member from a team (managers, or the member leaving)', params: TeamMemberParams, response: removal },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      return replyRemoval(reply, await removeTeamMember(request.ctx, organizationId, teamId, userId));
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/teams',
    {
      config: { policy: 'members.teams' },
      schema: {
        tags: ['organization-members'],
        operationId: 'listTeamsForOrganizationMember',
        summary: 'The teams of the organization a member belongs to (a guest sees only their own)',
        params: MemberParams,
        querystring: ListMemberTeamsQuery,
        response: { 200: ListOf(MemberTeamSchema), ...errorResponses },
      },
    },
    async (request) =>
      mapPage(await listMemberTeams(request.ctx, request.params.organizationId, request.params.userId, request.query), (view) =>
        presentMemberTeam(request.ctx, view),
      ),
  );
};
