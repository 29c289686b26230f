import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { replyNoContent } from '../../http/replies.ts';
import { errorResponses, ErrorBody, NoContent } from '../../http/schemas.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { retentionEnd } from '../spaces/retention.ts';
import { deleteNow, listTrash, restoreCollection } from './service.ts';

const tags = ['trash'];
const config = { policy: 'trash.manage' as const };

const TrashItemSchema = Type.Object(
  {
    object: Type.Literal('trash-item'),
    kind: Type.Union([Type.Literal('space'), Type.Literal('collection')]),
    id: Type.String(),
    title: Type.String(),
    emoji: Type.Optional(Type.String()),
    deletedAt: Type.String({ format: 'date-time' }),
    restorableUntil: Type.String({ format: 'date-time', description: 'After this moment it is purged for good.' }),
    spaces: Type.Integer({ description: 'For a collection: the spaces deleted with it.' }),
  },
  { $id: 'TrashItem' },
);

const ItemParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  kind: Type.Union([Type.Literal('spaces'), Type.Literal('collections')]),
  itemId: Type.String({ minLength: 1, maxLength: 100 }),
});

const CollectionRestoreParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }), collectionId: Type.String({ minLength: 1, maxLength: 100 }) });

/** Quire's own trash API (organization administrators). */
export const trashRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/trash',
    {
      config,
      schema: { tags, operationId: 'listTrash', summary: 'Spaces and collections deleted in the last 7 days, newest first (administrators)', params: OrganizationParams, response: { 200: Type.Object({ items: Type.Array(TrashItemSchema) }), ...errorResponses } },
    },
    async (request) => ({
      items: (await listTrash(request.ctx, request.params.organizationId)).map((item) => ({
        object: 'trash-item' as const,
        kind: item.kind,
        id: item.id,
        title: item.title,
        ...(item.emoji ? { emoji: item.emoji } : {}),
        deletedAt: item.deletedAt,
        restorableUntil: retentionEnd(item.deletedAt).toISOString(),
        spaces: item.spaces,
      })),
    }),
  );

  app.post(
    '/orgs/:organizationId/trash/collections/:collectionId/restore',
    {
      config,
      schema: {
        tags,
        operationId: 'restoreCollection',
        summary: 'Take a collection out of the trash within 7 days, with what was deleted with it (administrators); 410 once the 7 days have passed',
        params: CollectionRestoreParams,
        response: { 200: Type.Object({ id: Type.String(), title: Type.String() }), 410: ErrorBody, ...errorResponses },
      },
    },
    async (request) => restoreCollection(request.ctx, request.params.organizationId, request.params.collectionId),
  );

  app.delete(
    '/orgs/:organizationId/trash/:kind/:itemId',
    {
      config,
      schema: { tags, operationId: 'deleteFromTrash', summary: 'Remove a space or a collection of the trash for good, now (administrators)', params: ItemParams, response: { 204: NoContent, ...errorResponses } },
    },
    async (request, reply) => {
      await deleteNow(request.ctx, request.params.organizationId, request.params.kind === 'spaces' ? 'space' : 'collection', request.params.itemId);
      return replyNoContent(reply);
    },
  );
};
