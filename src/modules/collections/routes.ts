import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { replyRemoval } from '../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { presentSpace } from '../spaces/presenter.ts';
import { MoveBody, SpaceSchema, TransferBody } from '../spaces/schemas.ts';
import { collectionLocation, presentCollection } from './presenter.ts';
import { CollectionParams, CollectionSchema, CreateCollectionBody, ListCollectionSpacesQuery, ListCollectionsQuery, UpdateCollectionBody } from './schemas.ts';
import { createCollection, getCollection, listCollectionSpaces, listCollections, updateCollection } from './service.ts';
import { deleteCollection, moveCollection, transferCollection } from './tree.ts';

const tags = ['collections'];
const collectionResponse = { 200: CollectionSchema, ...errorResponses };

export const collectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/collections',
    {
      config: { policy: 'collections.list' },
      schema: {
        tags,
        operationId: 'listCollectionsInOrganizationById',
        summary: 'The collections of an organization that the caller can see, oldest first (nested=false: only those at the root)',
        params: OrganizationParams,
        querystring: ListCollectionsQuery,
        response: { 200: ListOf(CollectionSchema), ...errorResponses },
      },
    },
    async (request) => mapPage(await listCollections(request.ctx, request.params.organizationId, request.query), (view) => presentCollection(request.ctx, view)),
  );

  app.post(
    '/orgs/:organizationId/collections',
    {
      config: { policy: 'collections.create' },
      schema: { tags, operationId: 'createCollection', summary: 'Create a collection (create role)', params: OrganizationParams, body: CreateCollectionBody, response: { 201: CollectionSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const view = await createCollection(request.ctx, request.params.organizationId, request.body);
      return reply.code(201).header('location', collectionLocation(request.ctx, view.collection.id)).send(presentCollection(request.ctx, view));
    },
  );

  app.get(
    '/collections/:collectionId',
    {
      config: { policy: 'collection.view' },
      schema: { tags, operationId: 'getCollectionById', summary: 'A collection', params: CollectionParams, response: collectionResponse },
    },
    async (request) => presentCollection(request.ctx, await getCollection(request.ctx, request.params.collectionId)),
  );

  app.patch(
    '/collections/:collectionId',
    {
      config: { policy: 'collection.admin' },
      schema: { tags, operationId: 'updateCollectionById', summary: 'Change the title, description or default level of a collection (administrators)', params: CollectionParams, body: UpdateCollectionBody, response: collectionResponse },
    },
    async (request) => presentCollection(request.ctx, await updateCollection(request.ctx, request.params.collectionId, request.body)),
  );

  app.delete(
    '/collections/:collectionId',
    {
      config: { policy: 'collection.delete' },
      schema: {
        tags,
        operationId: 'deleteCollectionById',
        summary: 'Move a collection and everything in it to the trash (administrators): 205 when deleted, 204 when there was none',
        params: CollectionParams,
        response: { ...removalResponses, ...errorResponses },
      },
    },
    async (request, reply) => replyRemoval(reply, await deleteCollection(request.ctx, request.params.collectionId)),
  );

  app.get(
    '/collections/:collectionId/spaces',
    {
      config: { policy: 'collection.view' },
      schema: {
        tags,
        operationId: 'listSpacesInCollectionById',
        summary: 'The spaces directly in a collection that the caller can see, in order',
        params: CollectionParams,
        querystring: ListCollectionSpacesQuery,
        response: { 200: ListOf(SpaceSchema), ...errorResponses },
      },
    },
    async (request) => mapPage(await listCollectionSpaces(request.ctx, request.params.collectionId, request.query), (view) => presentSpace(request.ctx, view)),
  );

  app.post(
    '/collections/:collectionId/move',
    {
      config: { policy: 'collection.admin' },
      schema: { tags, operationId: 'moveCollection', summary: 'Move a collection into another, to the root, or among its siblings (administrators)', params: CollectionParams, body: MoveBody, response: collectionResponse },
    },
    async (request) => presentCollection(request.ctx, await moveCollection(request.ctx, request.params.collectionId, request.body)),
  );

  app.post(
    '/collections/:collectionId/transfer',
    {
      config: { policy: 'collection.admin' },
      schema: { tags, operationId: 'transferCollection', summary: 'Move a collection with everything in it to another organization (administrators of both)', params: CollectionParams, body: TransferBody, response: collectionResponse },
    },
    async (request) => presentCollection(request.ctx, await transferCollection(request.ctx, request.params.collectionId, request.body)),
  );
};
