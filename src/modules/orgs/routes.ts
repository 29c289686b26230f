import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendJsonOf } from '../../http/immutable-json.ts';
import { mapPage } from '../../http/pagination.ts';
import { errorResponses, ListOf } from '../../http/schemas.ts';
import { presentOrganization } from './presenter.ts';
import { EmailDomainOrganizations, EmailDomainParams, ListOrganizationsQuery, OrganizationParams, OrganizationSchema, UpdateOrganizationBody } from './schemas.ts';
import { getOrganization, listOrganizations, organizationsForEmailDomain, updateOrganization, type OrganizationView } from './service.ts';

const tags = ['organizations'];

export const organizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const present = (ctx: Parameters<typeof presentOrganization>[0]) => (view: OrganizationView) =>
    presentOrganization(ctx, view.organization, view.actor);

  app.get(
    '/orgs',
    {
      config: { policy: 'authenticated' },
      schema: { tags, operationId: 'listOrganizationsForAuthenticatedUser', summary: 'Organizations the caller belongs to', querystring: ListOrganizationsQuery, response: { 200: ListOf(OrganizationSchema), ...errorResponses } },
    },
    async (request) => mapPage(await listOrganizations(request.ctx, request.query), present(request.ctx)),
  );

  app.get(
    '/orgs/:organizationId',
    {
      config: { policy: 'organization.view' },
      schema: { tags, operationId: 'getOrganizationById', summary: 'An organization', params: OrganizationParams, response: { 200: OrganizationSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const view = await getOrganization(request.ctx, request.params.organizationId);
      // The same bytes for every request while the organization and the caller's membership are remembered.
      return sendJsonOf(reply, view.source, request.ctx.config.publicUrl, () => present(request.ctx)(view));
    },
  );

  app.patch(
    '/orgs/:organizationId',
    {
      config: { policy: 'organization.admin' },
      schema: {
        tags,
        operationId: 'updateOrganizationById',
        summary: 'Change an organization (administrators)',
        params: OrganizationParams,
        body: UpdateOrganizationBody,
        response: { 200: OrganizationSchema, ...errorResponses },
      },
    },
    async (request) => present(request.ctx)(await updateOrganization(request.ctx, request.params.organizationId, request.body)),
  );

  app.get(
    '/email-domains/:emailDomain/orgs',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        operationId: 'getOrganizationsForEmailDomain',
        summary: 'Organizations that declare an e-mail domain (the caller\'s own domain, or organizations they belong to)',
        params: EmailDomainParams,
        response: { 200: EmailDomainOrganizations, ...errorResponses },
      },
    },
    async (request) => ({ organizations: (await organizationsForEmailDomain(request.ctx, request.params.emailDomain)).map(present(request.ctx)) }),
  );
};
