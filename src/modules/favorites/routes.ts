import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replyRemoval } from '../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { presentSpace } from '../spaces/presenter.ts';
import { SpaceSchema } from '../spaces/schemas.ts';
import { FavoriteSpaceParams } from './schemas.ts';
import { addFavoriteSpace, listFavoriteSpaces, MAX_FAVORITES, removeFavoriteSpace } from './service.ts';

/** Quire's own operations (GitBook's API has none): the caller's favourite (starred) spaces. */
export const favoriteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['users'];
  app.get(
    '/user/favorites/spaces',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        summary: `Your favourite spaces that you may still read, the most recently starred first (Quire's addition; at most ${MAX_FAVORITES}, one page)`,
        operationId: 'listMyFavoriteSpaces',
        response: { 200: ListOf(SpaceSchema), ...errorResponses },
      },
    },
    async (request) => {
      const items = (await listFavoriteSpaces(request.ctx)).map((view) => presentSpace(request.ctx, view));
      return { count: items.length, items };
    },
  );

  app.put(
    '/user/favorites/spaces/:spaceId',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        summary: "Star a space you may read (Quire's addition); starring it again changes nothing",
        operationId: 'addMyFavoriteSpace',
        params: FavoriteSpaceParams,
        response: { 200: SpaceSchema, ...errorResponses },
      },
    },
    async (request) => presentSpace(request.ctx, await addFavoriteSpace(request.ctx, request.params.spaceId)),
  );

  app.delete(
    '/user/favorites/spaces/:spaceId',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        summary: "Remove your star from a space (Quire's addition): 205 when it was starred, 204 when it was not",
        operationId: 'removeMyFavoriteSpace',
        params: FavoriteSpaceParams,
        response: { ...removalResponses, ...errorResponses },
      },
    },
    async (request, reply) => replyRemoval(reply, await removeFavoriteSpace(request.ctx, request.params.spaceId)),
  );
};
