import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { replyRemoval } from '../../http/replies.ts';
import { presentOidcProvider } from './presenter.ts';
import type { OidcProviderView } from './views.ts';
import {
  CreateOidcProviderBody,
  ListOidcProvidersQuery,
  OidcListParams,
  OidcProviderParams,
  OidcProviderSchema,
  UpdateOidcProviderBody,
} from './schemas.ts';
import { createOidcProvider, deleteOidcProvider, getOidcProvider, listOidcProviders, updateOidcProvider } from './service.ts';

const tags = ['sso'];

/** Quire's own operations on the OpenID Connect providers of an organization, beside the SAML providers. */

export const oidcRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const present = (ctx: Parameters<typeof presentOidcProvider>[0]) => (view: OidcProviderView) => presentOidcProvider(ctx, view);

  app.get(
    '/orgs/:organizationId/oidc',
    {
      config: { policy: 'oidc.manage' },
      schema: {
        tags,
        operationId: 'listOIDCProvidersInOrganization',
        summary: 'The OpenID Connect providers of an organization, oldest first (administrators; Quire’s own)',
        params: OidcListParams,
        querystring: ListOidcProvidersQuery,
        response: { 200: ListOf(OidcProviderSchema), ...errorResponses },
      },
    },
    async (request) => mapPage(await listOidcProviders(request.ctx, request.params.organizationId, request.query), present(request.ctx)),
  );

  app.post(
    '/orgs/:organizationId/oidc',
    {
      config: { policy: 'oidc.manage' },
      schema: {
        tags,
        operationId: 'createOrganizationOIDCProvider',
        summary: 'Add an OpenID Connect provider (administrators; Quire’s own); the client secret is stored encrypted and never returned',
        params: OidcListParams,
        body: CreateOidcProviderBody,
        response: { 201: OidcProviderSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const provider = present(request.ctx)(await createOidcProvider(request.ctx, request.params.organizationId, request.body));
      return reply.code(201).header('location', provider.urls.location).send(provider);
    },
  );

  app.get(
    '/orgs/:organizationId/oidc/:oidcProviderId',
    {
      config: { policy: 'oidc.manage' },
      schema: {
        tags,
        operationId: 'getOrganizationOIDCProviderById',
        summary: 'An OpenID Connect provider (administrators; Quire’s own)',
        params: OidcProviderParams,
        response: { 200: OidcProviderSchema, ...errorResponses },
      },
    },
    async (request) => present(request.ctx)(await getOidcProvider(request.ctx, request.params.organizationId, request.params.oidcProviderId)),
  );

  app.patch(
    '/orgs/:organizationId/oidc/:oidcProviderId',
    {
      config: { policy: 'oidc.manage' },
      schema: {
        tags,
        operationId: 'updateOrganizationOIDCProvider',
        summary: 'Change an OpenID Connect provider (administrators; Quire’s own); null clears clientSecret or defaultTeam',
        params: OidcProviderParams,
        body: UpdateOidcProviderBody,
        response: { 200: OidcProviderSchema, ...errorResponses },
      },
    },
    async (request) =>
      present(request.ctx)(await updateOidcProvider(request.ctx, request.params.organizationId, request.params.oidcProviderId, request.body)),
  );

  app.delete(
    '/orgs/:organizationId/oidc/:oidcProviderId',
    {
      config: { policy: 'oidc.manage' },
      schema: {
        tags,
        operationId: 'deleteOrganizationOIDCProvider',
        summary: 'Remove an OpenID Connect provider (administrators; Quire’s own): 205 when removed, 204 when there was none',
        params: OidcProviderParams,
        response: { ...removalResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const deleted = await deleteOidcProvider(request.ctx, request.params.organizationId, request.params.oidcProviderId);
      return replyRemoval(reply, deleted);
    },
  );
};
