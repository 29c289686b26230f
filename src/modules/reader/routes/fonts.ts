import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replyRemoval } from '../../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../../http/schemas.ts';
import { createFont, deleteFont, getFont, listFonts, updateFont } from '../fonts.ts';
import { CustomFontSchema, FontBody, FontParams, FontUpdateBody, ListFontsQuery, OrganizationParams } from '../schemas.ts';

const tags = ['custom-fonts'];

export const fontRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/fonts',
    { config: { policy: 'site.view' }, schema: { tags, operationId: 'listCustomFonts', summary: 'The custom fonts of an organization', params: OrganizationParams, querystring: ListFontsQuery, response: { 200: ListOf(CustomFontSchema), ...errorResponses } } },
    async (request) => listFonts(request.ctx, request.params.organizationId, request.query),
  );
  app.put(
    '/orgs/:organizationId/fonts',
    { config: { policy: 'site.manage' }, schema: { tags, operationId: 'createCustomFont', summary: 'Add a custom font (each face: a weight and the https address of its file)', params: OrganizationParams, body: FontBody, response: { 201: CustomFontSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await createFont(request.ctx, request.params.organizationId, request.body)),
  );
  app.get(
    '/orgs/:organizationId/fonts/:fontId',
    { config: { policy: 'site.view' }, schema: { tags, operationId: 'getCustomFont', summary: 'One custom font', params: FontParams, response: { 200: CustomFontSchema, ...errorResponses } } },
    async (request) => getFont(request.ctx, request.params.organizationId, request.params.fontId),
  );
  app.post(
    '/orgs/:organizationId/fonts/:fontId',
    { config: { policy: 'site.manage' }, schema: { tags, operationId: 'updateCustomFont', summary: 'Rename a font or set its faces (a null storageKey removes a weight)', params: FontParams, body: FontUpdateBody, response: { 201: CustomFontSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await updateFont(request.ctx, request.params.organizationId, request.params.fontId, request.body)),
  );
  app.delete(
    '/orgs/:organizationId/fonts/:fontId',
    { config: { policy: 'site.manage' }, schema: { tags, operationId: 'deleteCustomFont', summary: 'Delete a custom font: 205 when deleted, 204 when there was none', params: FontParams, response: { ...removalResponses, ...errorResponses } } },
    async (request, reply) => replyRemoval(reply, await deleteFont(request.ctx, request.params.organizationId, request.params.fontId)),
  );
};
