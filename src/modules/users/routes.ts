import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { replyRemoval } from '../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { presentApiToken, presentUser } from './presenter.ts';
import { ApiTokenParams, ApiTokenSchema, CreateApiTokenBody, CreatedApiTokenSchema, ListApiTokensQuery, UpdateUserBody, UserParams, UserSchema } from './schemas.ts';
import { getAuthenticatedUser, getVisibleUser, updateUser } from './service.ts';
import { createMyToken, listMyTokens, revokeMyToken } from './tokens.ts';

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/user',
    {
      config: { policy: 'authenticated' },
      schema: { tags: ['users'], summary: 'The user the token belongs to', operationId: 'getAuthenticatedUser', response: { 200: UserSchema, ...errorResponses } },
    },
    async (request) => presentUser(request.ctx, await getAuthenticatedUser(request.ctx)),
  );

  app.get(
    '/users/:userId',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'A user who shares an organization with the caller',
        operationId: 'getUserById',
        params: UserParams,
        response: { 200: UserSchema, ...errorResponses },
      },
    },
    async (request) => presentUser(request.ctx, await getVisibleUser(request.ctx, request.params.userId)),
  );

  app.patch(
    '/users/:userId',
    {
      config: { policy: 'user.update' },
      schema: {
        tags: ['users'],
        summary: 'Change your own profile: display name, photo address',
        operationId: 'updateUserById',
        params: UserParams,
        body: UpdateUserBody,
        response: { 200: UserSchema, ...errorResponses },
      },
    },
    async (request) => presentUser(request.ctx, await updateUser(request.ctx, request.params.userId, request.body)),
  );

  // Quire's own routes (GitBook's API has none for tokens): the caller's own API tokens.
  const tokens = { tags: ['users'] };
  app.get(
    '/user/tokens',
    {
      config: { policy: 'authenticated' },
      schema: { ...tokens, summary: 'Your API tokens, newest first (never their secrets)', operationId: 'listMyApiTokens', querystring: ListApiTokensQuery, response: { 200: ListOf(ApiTokenSchema), ...errorResponses } },
    },
    async (request) => mapPage(await listMyTokens(request.ctx, request.query), (row) => presentApiToken(request.ctx, row)),
  );

  app.post(
    '/user/tokens',
    {
      config: { policy: 'authenticated' },
      schema: { ...tokens, summary: 'Create an API token for yourself; its secret is in this answer only', operationId: 'createMyApiToken', body: CreateApiTokenBody, response: { 201: CreatedApiTokenSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { token, row } = await createMyToken(request.ctx, request.body);
      return reply.code(201).send({ ...presentApiToken(request.ctx, row), token });
    },
  );

  app.delete(
    '/user/tokens/:tokenId',
    {
      config: { policy: 'authenticated' },
      schema: { ...tokens, summary: 'Revoke one of your API tokens', operationId: 'revokeMyApiToken', params: ApiTokenParams, response: { ...removalResponses, ...errorResponses } },
    },
    async (request, reply) => {
      const { row, tokenHash, revoked } = await revokeMyToken(request.ctx, request.params.tokenId);
      request.server.tokens.forget(tokenHash);
      return replyRemoval(reply, revoked && row.revoked_at !== null);
    },
  );
};
