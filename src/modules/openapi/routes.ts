import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { replyRemoval } from '../../http/replies.ts';
import { contentResponse } from './content.ts';
import { presentSpec, presentVersion } from './presenter.ts';
import { CreateSpecBody, ListSpecsQuery, OpenAPISpecContentSchema, OpenAPISpecSchema, OpenAPISpecVersionSchema, OrgParams, PatchSpecBody, PutSpecBody, SpecParams, VersionParams } from './schemas.ts';
import { createSpec, deleteSpec, getSpec, getVersion, listSpecs, listVersions, putSpec, updateSpecVisibility } from './service.ts';

const tags = ['openapi'];
const versionTags = ['openapi-versions'];

/** The eleven operations of OpenAPI specifications and their versions (docs/api.md, "OpenAPI specifications"). */
export const openAPIRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/openapi',
    { config: { policy: 'openapi.list' }, schema: { tags, operationId: 'listOpenAPISpecs', summary: 'The OpenAPI specifications of an organization', params: OrgParams, querystring: ListSpecsQuery, response: { 200: ListOf(OpenAPISpecSchema), ...errorResponses } } },
    async (request) => mapPage(await listSpecs(request.ctx, request.params.organizationId, request.query), (view) => presentSpec(request.ctx, view.row, view.actor)),
  );

  app.post(
    '/orgs/:organizationId/openapi',
    { config: { policy: 'openapi.create' }, schema: { tags, operationId: 'createOpenAPISpec', summary: 'Add an OpenAPI specification from a URL or a text; it is processed in the background', params: OrgParams, body: CreateSpecBody, response: { 201: OpenAPISpecSchema, ...errorResponses } } },
    async (request, reply) => {
      const view = await createSpec(request.ctx, request.params.organizationId, request.body);
      const spec = presentSpec(request.ctx, view.row, view.actor);
      return reply.code(201).header('location', spec.urls.location).send(spec);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug',
    { config: { policy: 'openapi.view' }, schema: { tags, operationId: 'getOpenAPISpecBySlug', summary: 'An OpenAPI specification, with its processing state', params: SpecParams, response: { 200: OpenAPISpecSchema, ...errorResponses } } },
    async (request) => {
      const view = await getSpec(request.ctx, request.params.organizationId, request.params.specSlug);
      return presentSpec(request.ctx, view.row, view.actor);
    },
  );

  app.put(
    '/orgs/:organizationId/openapi/:specSlug',
    { config: { policy: 'openapi.put' }, schema: { tags, operationId: 'createOrUpdateOpenAPISpecBySlug', summary: 'Create (201) or update (200) an OpenAPI specification by slug', params: SpecParams, body: PutSpecBody, response: { 200: OpenAPISpecSchema, 201: OpenAPISpecSchema, ...errorResponses } } },
    async (request, reply) => {
      const view = await putSpec(request.ctx, request.params.organizationId, request.params.specSlug, request.body.source);
      return reply.code(view.created ? 201 : 200).send(presentSpec(request.ctx, view.row, view.actor));
    },
  );

  app.patch(
    '/orgs/:organizationId/openapi/:specSlug',
    { config: { policy: 'openapi.edit' }, schema: { tags, operationId: 'updateOpenAPISpecBySlug', summary: 'Change the visibility of an OpenAPI specification', params: SpecParams, body: PatchSpecBody, response: { 200: OpenAPISpecSchema, ...errorResponses } } },
    async (request) => {
      const view = await updateSpecVisibility(request.ctx, request.params.organizationId, request.params.specSlug, request.body.visibility);
      return presentSpec(request.ctx, view.row, view.actor);
    },
  );

  app.delete(
    '/orgs/:organizationId/openapi/:specSlug',
    { config: { policy: 'openapi.delete' }, schema: { tags, operationId: 'deleteOpenAPISpecBySlug', summary: 'Delete an OpenAPI specification and all its versions (205), or nothing (204)', params: SpecParams, response: { ...removalResponses, ...errorResponses } } },
    async (request, reply) => replyRemoval(reply, await deleteSpec(request.ctx, request.params.organizationId, request.params.specSlug)),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions',
    { config: { policy: 'openapi.view' }, schema: { tags: versionTags, operationId: 'listOpenAPISpecVersions', summary: 'The versions of an OpenAPI specification, newest first', params: SpecParams, querystring: ListSpecsQuery, response: { 200: ListOf(OpenAPISpecVersionSchema), ...errorResponses } } },
    async (request) => {
      const { spec, page } = await listVersions(request.ctx, request.params.organizationId, request.params.specSlug, request.query);
      return mapPage(page, (version) => presentVersion(request.ctx, spec, version));
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest',
    { config: { policy: 'openapi.view' }, schema: { tags: versionTags, operationId: 'getLatestOpenAPISpecVersion', summary: 'The latest version of an OpenAPI specification', params: SpecParams, response: { 200: OpenAPISpecVersionSchema, ...errorResponses } } },
    async (request) => {
      const { spec, version } = await getVersion(request.ctx, request.params.organizationId, request.params.specSlug, null, false);
      return presentVersion(request.ctx, spec, version);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest/content',
    { config: { policy: 'openapi.view' }, schema: { tags: versionTags, operationId: 'getLatestOpenAPISpecVersionContent', summary: 'The bundled description of the latest version', params: SpecParams, response: { 200: OpenAPISpecContentSchema, ...errorResponses } } },
    async (request, reply) => contentResponse(request.ctx, reply, await getVersion(request.ctx, request.params.organizationId, request.params.specSlug, null, true)),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId',
    { config: { policy: 'openapi.view' }, schema: { tags: versionTags, operationId: 'getOpenAPISpecVersionById', summary: 'A version of an OpenAPI specification', params: VersionParams, response: { 200: OpenAPISpecVersionSchema, ...errorResponses } } },
    async (request) => {
      const { spec, version } = await getVersion(request.ctx, request.params.organizationId, request.params.specSlug, request.params.versionId, false);
      return presentVersion(request.ctx, spec, version);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content',
    { config: { policy: 'openapi.view' }, schema: { tags: versionTags, operationId: 'getOpenAPISpecVersionContentById', summary: 'The bundled description of a version', params: VersionParams, response: { 200: OpenAPISpecContentSchema, ...errorResponses } } },
    async (request, reply) => contentResponse(request.ctx, reply, await getVersion(request.ctx, request.params.organizationId, request.params.specSlug, request.params.versionId, true)),
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId/openapi.json',
    { config: { policy: 'openapi.view' }, schema: { tags: versionTags, operationId: 'getOpenAPISpecVersionFile', summary: 'Quire: the bundled description of a version as a file (the version\'s url)', params: VersionParams } },
    async (request, reply) => {
      const { version } = await getVersion(request.ctx, request.params.organizationId, request.params.specSlug, request.params.versionId, true);
      return reply.type('application/json; charset=utf-8').send(version.content);
    },
  );
};
