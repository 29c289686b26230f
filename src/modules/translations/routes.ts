import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { mapPage } from '../../http/pagination.ts';
import { replyNoContent, replyRemoval } from '../../http/replies.ts';
import { errorResponses, ListOf, NoContent, removalResponses } from '../../http/schemas.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { getGlossaryEntry, listGlossary, updateGlossary } from './glossary.ts';
import { presentGlossaryEntry, presentTranslation, presentTranslationEngine, translationLocation } from './presenter.ts';
import {
  CreateTranslationBody,
  GlossaryEntryParams,
  GlossaryEntrySchema,
  ListTranslationsQuery,
  TranslationPageSchema,
  TranslationParams,
  TranslationSchema,
  TranslationEngineSchema,
  UpdateTranslationEngineBody,
  UpdateGlossaryBody,
  UpdateTranslationBody,
} from './schemas.ts';
import { getTranslationEngine, setTranslationEngine } from './engine-setting.ts';
import { createTranslation, deleteTranslation, getTranslation, listTranslationPages, listTranslations, updateTranslation } from './service.ts';

const tags = ['translations'];
const translationResponse = { 200: TranslationSchema, ...errorResponses };

export const translationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/translations',
    {
      config: { policy: 'translations.list' },
      schema: { tags, operationId: 'listTranslations', summary: 'The translations of the organization whose source space the caller can read, oldest first', params: OrganizationParams, querystring: ListTranslationsQuery, response: { 200: ListOf(TranslationSchema), ...errorResponses } },
    },
    async (request) => mapPage(await listTranslations(request.ctx, request.params.organizationId, request.query), (view) => presentTranslation(request.ctx, view)),
  );

  app.post(
    '/orgs/:organizationId/translations',
    {
      config: { policy: 'translation.create' },
      schema: { tags, operationId: 'createTranslation', summary: 'Translate a space into a language, and keep it translated (create role)', params: OrganizationParams, body: CreateTranslationBody, response: { 201: TranslationSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const view = await createTranslation(request.ctx, request.params.organizationId, request.body);
      return reply.code(201).header('location', translationLocation(request.ctx, view.translation.organization_id, view.translation.id)).send(presentTranslation(request.ctx, view));
    },
  );

  app.get(
    '/orgs/:organizationId/translations/:translationId',
    { config: { policy: 'translation.view' }, schema: { tags, operationId: 'getTranslation', summary: 'A translation', params: TranslationParams, response: translationResponse } },
    async (request) => presentTranslation(request.ctx, await getTranslation(request.ctx, request.params.organizationId, request.params.translationId)),
  );

  app.put(
    '/orgs/:organizationId/translations/:translationId',
    {
      config: { policy: 'translation.edit' },
      schema: { tags, operationId: 'updateTranslation', summary: 'New instructions; every page is translated again with them (create role)', params: TranslationParams, body: UpdateTranslationBody, response: translationResponse },
    },
    async (request) => presentTranslation(request.ctx, await updateTranslation(request.ctx, request.params.organizationId, request.params.translationId, request.body)),
  );

  app.delete(
    '/orgs/:organizationId/translations/:translationId',
    {
      config: { policy: 'translation.delete' },
      schema: { tags, operationId: 'deleteTranslation', summary: 'Stop translating: 205 when removed (the result space stays, unlocked), 204 when there was none', params: TranslationParams, response: { ...removalResponses, ...errorResponses } },
    },
    async (request, reply) => replyRemoval(reply, await deleteTranslation(request.ctx, request.params.organizationId, request.params.translationId)),
  );

  app.get(
    '/orgs/:organizationId/translations/:translationId/pages',
    {
      config: { policy: 'translation.view' },
      schema: { tags, operationId: 'listTranslationPages', summary: 'Quire: the status of each page of a translation (translated, current, or edited by hand and kept)', params: TranslationParams, response: { 200: Type.Object({ items: Type.Array(TranslationPageSchema) }), ...errorResponses } },
    },
    async (request) => ({ items: await listTranslationPages(request.ctx, request.params.organizationId, request.params.translationId) }),
  );

  app.get(
    '/orgs/:organizationId/translations-glossary',
    {
      config: { policy: 'glossary.view' },
      schema: { tags, operationId: 'listGlossaryEntries', summary: 'The glossary of the organization (members)', params: OrganizationParams, querystring: ListTranslationsQuery, response: { 200: ListOf(GlossaryEntrySchema), ...errorResponses } },
    },
    async (request) => mapPage(await listGlossary(request.ctx, request.params.organizationId, request.query), (entry) => presentGlossaryEntry(request.ctx, entry)),
  );

  app.put(
    '/orgs/:organizationId/translations-glossary',
    {
      config: { policy: 'glossary.edit' },
      schema: { tags, operationId: 'updateGlossaryEntries', summary: 'Insert, update and delete glossary entries in one batch (create role); translations run again', params: OrganizationParams, body: UpdateGlossaryBody, response: { 204: NoContent, ...errorResponses } },
    },
    async (request, reply) => {
      await updateGlossary(request.ctx, request.params.organizationId, request.body);
      return replyNoContent(reply);
    },
  );

  app.get(
    '/orgs/:organizationId/translations-glossary/:glossaryEntryId',
    { config: { policy: 'glossary.view' }, schema: { tags, operationId: 'getGlossaryEntry', summary: 'A glossary entry', params: GlossaryEntryParams, response: { 200: GlossaryEntrySchema, ...errorResponses } } },
    async (request) => presentGlossaryEntry(request.ctx, await getGlossaryEntry(request.ctx, request.params.organizationId, request.params.glossaryEntryId)),
  );

  app.get(
    '/orgs/:organizationId/translations-engine',
    {
      config: { policy: 'translationEngine.view' },
      schema: { tags, operationId: 'getTranslationEngine', summary: "The organization's translation engine and the engines it may choose (Quire's own; members)", params: OrganizationParams, response: { 200: TranslationEngineSchema, ...errorResponses } },
    },
    async (request) => presentTranslationEngine(await getTranslationEngine(request.ctx, request.params.organizationId)),
  );

  app.put(
    '/orgs/:organizationId/translations-engine',
    {
      config: { policy: 'translationEngine.update' },
      schema: { tags, operationId: 'updateTranslationEngine', summary: "Choose the organization's translation engine among those offered, or null for the server's (Quire's own; administrators)", params: OrganizationParams, body: UpdateTranslationEngineBody, response: { 200: TranslationEngineSchema, ...errorResponses } },
    },
    async (request) => presentTranslationEngine(await setTranslationEngine(request.ctx, request.params.organizationId, request.body.engine)),
  );
};
