import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.ts';
import { presentUser } from './presenter.ts';
import { UpdateUserBody, UserParams, UserSchema } from './schemas.ts';
import { getAuthenticatedUser, getVisibleUser, updateUser } from './service.ts';

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
};
