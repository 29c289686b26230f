import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { replyNoContent, replyRemoval } from '../../http/replies.ts';
import { errorResponses, ListOf, NoContent, removalResponses } from '../../http/schemas.ts';
import type { RoutePolicy } from '../../policy/index.ts';
import { presentTeamPermission, presentUserPermission } from './presenter.ts';
import {
  AggregateQuery,
  CollectionParams,
  CollectionTeamParams,
  CollectionUserParams,
  InviteBody,
  ListPermissionsQuery,
  SpaceParams,
  SpaceTeamParams,
  SpaceUserParams,
  TeamPermissionSchema,
  UpdatePermissionBody,
  UserPermissionSchema,
} from './schemas.ts';
import { invite, listPermissionsAggregate, listTeamPermissions, listUserPermissions, removePermission, updatePermission, type ContentKind } from './service.ts';

/**
 * Sharing a space or a collection with users and teams (the client's space-users, space-teams,
 * collection-users and collection-teams operations). Both kinds have the same routes; only the names differ.
 */
const KINDS = [
  {
    kind: 'space',
    base: '/spaces/:spaceId/permissions',
    param: 'spaceId',
    params: SpaceParams,
    userParams: SpaceUserParams,
    teamParams: SpaceTeamParams,
    read: 'space.viewPermissions',
    share: 'space.share',
    tag: 'space-users',
    teamTag: 'space-teams',
    ids: {
      invite: 'inviteToSpace',
      users: 'listUserPermissionsInSpace',
      teams: 'listTeamPermissionsInSpace',
      aggregate: 'listPermissionsAggregateInSpace',
      updateUser: 'updateUserPermissionInSpace',
      removeUser: 'removeUserFromSpace',
      updateTeam: 'updateTeamPermissionInSpace',
      removeTeam: 'removeTeamFromSpace',
    },
  },
  {
    kind: 'collection',
    base: '/collections/:collectionId/permissions',
    param: 'collectionId',
    params: CollectionParams,
    userParams: CollectionUserParams,
    teamParams: CollectionTeamParams,
    read: 'collection.viewPermissions',
    share: 'collection.share',
    tag: 'collection-users',
    teamTag: 'collection-teams',
    ids: {
      invite: 'inviteToCollection',
      users: 'listUserPermissionsInCollection',
      teams: 'listTeamPermissionsInCollection',
      aggregate: 'listPermissionsAggregateInCollection',
      updateUser: 'updateUserPermissionInCollection',
      removeUser: 'removeUserFromCollection',
      updateTeam: 'updateTeamPermissionInCollection',
      removeTeam: 'removeTeamFromCollection',
    },
  },
] as const satisfies ReadonlyArray<{ kind: ContentKind; read: RoutePolicy; share: RoutePolicy } & Record<string, unknown>>;

const removal = { ...removalResponses, ...errorResponses };

export const sharingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const k of KINDS) {
    const idOf = (params: Record<string, string>) => params[k.param];

    app.post(
      k.base,
      {
        config: { policy: k.share },
        schema: { tags: [k.tag], operationId: k.ids.invite, summary: `Share the ${k.kind} with users and teams, giving them a role (null removes it)`, params: k.params, body: InviteBody, response: { 204: NoContent, ...errorResponses } },
      },
      async (request, reply) => {
        await invite(request.ctx, k.kind, idOf(request.params), request.body);
        return replyNoContent(reply);
      },
    );

    app.get(
      `${k.base}/users`,
      {
        config: { policy: k.read },
        schema: { tags: [k.tag], operationId: k.ids.users, summary: `The users the ${k.kind} was shared with, and their roles`, params: k.params, querystring: ListPermissionsQuery, response: { 200: ListOf(UserPermissionSchema), ...errorResponses } },
      },
      async (request) => mapPage(await listUserPermissions(request.ctx, k.kind, idOf(request.params), request.query), (view) => presentUserPermission(request.ctx, view)),
    );

    app.get(
      `${k.base}/teams`,
      {
        config: { policy: k.read },
        schema: { tags: [k.teamTag], operationId: k.ids.teams, summary: `The teams the ${k.kind} was shared with, and their roles`, params: k.params, querystring: ListPermissionsQuery, response: { 200: ListOf(TeamPermissionSchema), ...errorResponses } },
      },
      async (request) => mapPage(await listTeamPermissions(request.ctx, k.kind, idOf(request.params), request.query), (view) => presentTeamPermission(request.ctx, view)),
    );

    app.get(
      `${k.base}/aggregate`,
      {
        config: { policy: k.read },
        schema: { tags: [k.tag], operationId: k.ids.aggregate, summary: `Everyone who can access the ${k.kind}, with their level there`, params: k.params, querystring: AggregateQuery, response: { 200: ListOf(UserPermissionSchema), ...errorResponses } },
      },
      async (request) => mapPage(await listPermissionsAggregate(request.ctx, k.kind, idOf(request.params), request.query), (view) => presentUserPermission(request.ctx, view)),
    );

    app.patch(
      `${k.base}/users/:userId`,
      {
        config: { policy: k.share },
        schema: { tags: [k.tag], operationId: k.ids.updateUser, summary: `Give a user a role on the ${k.kind} (null removes it)`, params: k.userParams, body: UpdatePermissionBody, response: { 204: NoContent, ...errorResponses } },
      },
      async (request, reply) => {
        await updatePermission(request.ctx, k.kind, idOf(request.params), { kind: 'user', id: request.params.userId }, request.body.role);
        return replyNoContent(reply);
      },
    );

    app.delete(
      `${k.base}/users/:userId`,
      {
        config: { policy: k.share },
        schema: { tags: [k.tag], operationId: k.ids.removeUser, summary: `Take away the role given to a user on the ${k.kind}`, params: k.userParams, response: removal },
      },
      async (request, reply) => replyRemoval(reply, await removePermission(request.ctx, k.kind, idOf(request.params), { kind: 'user', id: request.params.userId })),
    );

    app.patch(
      `${k.base}/teams/:teamId`,
      {
        config: { policy: k.share },
        schema: { tags: [k.teamTag], operationId: k.ids.updateTeam, summary: `Give a team a role on the ${k.kind} (null removes it)`, params: k.teamParams, body: UpdatePermissionBody, response: { 204: NoContent, ...errorResponses } },
      },
      async (request, reply) => {
        await updatePermission(request.ctx, k.kind, idOf(request.params), { kind: 'team', id: request.params.teamId }, request.body.role);
        return replyNoContent(reply);
      },
    );

    app.delete(
      `${k.base}/teams/:teamId`,
      {
        config: { policy: k.share },
        schema: { tags: [k.teamTag], operationId: k.ids.removeTeam, summary: `Take away the role given to a team on the ${k.kind}`, params: k.teamParams, response: removal },
      },
      async (request, reply) => replyRemoval(reply, await removePermission(request.ctx, k.kind, idOf(request.params), { kind: 'team', id: request.params.teamId })),
    );
  }
};
