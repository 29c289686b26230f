import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { replyRemoval } from '../../http/replies.ts';
import { presentSamlProvider, presentSsoLogin } from './presenter.ts';
import type { SamlProviderView } from './views.ts';
import {
  CreateSamlProviderBody,
  ListSamlProvidersQuery,
  SamlListParams,
  SamlProviderParams,
  SamlProviderSchema,
  SsoLoginsSchema,
  UpdateSamlProviderBody,
} from './schemas.ts';
import { createSamlProvider, deleteSamlProvider, getSamlProvider, listSamlProviders, listSsoLogins, updateSamlProvider } from './service.ts';

const tags = ['sso'];

export const samlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const present = (ctx: Parameters<typeof presentSamlProvider>[0]) => (view: SamlProviderView) => presentSamlProvider(ctx, view);

  app.get(
    '/orgs/:organizationId/saml',
    {
      config: { policy: 'saml.manage' },
      schema: {
        tags,
        operationId: 'listSAMLProvidersInOrganizationById',
        summary: 'The SAML providers of an organization, oldest first (administrators)',
        params: SamlListParams,
        querystring: ListSamlProvidersQuery,
        response: { 200: ListOf(SamlProviderSchema), ...errorResponses },
      },
    },
    async (request) => mapPage(await listSamlProviders(request.ctx, request.params.organizationId, request.query), present(request.ctx)),
  );

  app.post(
    '/orgs/:organizationId/saml',
    {
      config: { policy: 'saml.manage' },
      schema: {
        tags,
        operationId: 'createOrganizationSAMLProvider',
        summary: 'Add a SAML provider (administrators); it is active once ssoURL, entityID and certificate are all set',
        params: SamlListParams,
        body: CreateSamlProviderBody,
        response: { 201: SamlProviderSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const provider = present(request.ctx)(await createSamlProvider(request.ctx, request.params.organizationId, request.body));
      return reply.code(201).header('location', provider.urls.location).send(provider);
    },
  );

  app.get(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      config: { policy: 'saml.manage' },
      schema: {
        tags,
        operationId: 'getOrganizationSAMLProviderById',
        summary: 'A SAML provider (administrators)',
        params: SamlProviderParams,
        response: { 200: SamlProviderSchema, ...errorResponses },
      },
    },
    async (request) => present(request.ctx)(await getSamlProvider(request.ctx, request.params.organizationId, request.params.samlProviderId)),
  );

  app.patch(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      config: { policy: 'saml.manage' },
      schema: {
        tags,
        operationId: 'updateOrganizationSAMLProvider',
        summary: 'Change a SAML provider (administrators); null clears a member',
        params: SamlProviderParams,
        body: UpdateSamlProviderBody,
        response: { 200: SamlProviderSchema, ...errorResponses },
      },
    },
    async (request) =>
      present(request.ctx)(await updateSamlProvider(request.ctx, request.params.organizationId, request.params.samlProviderId, request.body)),
  );

  app.delete(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      config: { policy: 'saml.manage' },
      schema: {
        tags,
        operationId: 'deleteOrganizationSAMLProvider',
        summary: 'Remove a SAML provider (administrators): 205 when removed, 204 when there was none',
        params: SamlProviderParams,
        response: { ...removalResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const deleted = await deleteSamlProvider(request.ctx, request.params.organizationId, request.params.samlProviderId);
      return replyRemoval(reply, deleted);
    },
  );

  app.get(
    '/orgs/:organizationId/sso',
    {
      config: { policy: 'organization.view' },
      schema: {
        tags,
        operationId: 'listSSOProviderLoginsInOrganization',
        summary: 'How to log in to an organization: its active SAML providers and its OpenID Connect providers (members and guests)',
        params: SamlListParams,
        response: { 200: SsoLoginsSchema, ...errorResponses },
      },
    },
    async (request) => ({ items: (await listSsoLogins(request.ctx, request.params.organizationId)).map((row) => presentSsoLogin(request.ctx, row)) }),
  );
};
