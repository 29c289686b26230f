import type { Context } from '../context.ts';
import type { OpenapiSpecsTable } from '../db/tables/openapi.ts';
import { NotFound } from '../errors.ts';
import type { OpenAPISpecActor } from '../policy/index.ts';
import { organizationAccess, type OrganizationAccess } from './organizations.ts';

export type OpenAPISpecRow = OpenapiSpecsTable;

/** A spec of an organization with the caller's standing; `spec` is undefined when no spec has that slug. */
export interface OpenAPISpecAccess extends OrganizationAccess {
  spec: OpenAPISpecRow | undefined;
  specActor: OpenAPISpecActor | null;
}

export function findSpecBySlug(ctx: Pick<Context, 'db'>, organizationId: string, slug: string): Promise<OpenAPISpecRow | undefined> {
  return ctx.db.selectFrom('openapi_specs').selectAll().where('organization_id', '=', organizationId).where('slug', '=', slug).executeTakeFirst();
}

/** Loads the organization (404 for outsiders) and the spec by slug, with the caller as its actor. */
export async function openAPISpecAccess(ctx: Context, organizationId: string, slug: string): Promise<OpenAPISpecAccess> {
  const access = await organizationAccess(ctx, organizationId);
  const spec = await findSpecBySlug(ctx, organizationId, slug);
  return { ...access, spec, specActor: spec ? specActorOf(access, spec) : null };
}

export function specActorOf(access: OrganizationAccess, spec: Pick<OpenAPISpecRow, 'visibility'>): OpenAPISpecActor {
  return { organization: access.actor, visibility: spec.visibility === 'public' ? 'public' : 'private' };
}

export function specNotFound(slug: string): NotFound {
  return new NotFound(`No OpenAPI specification "${slug}" exists in this organization: list them with GET /v1/orgs/{organizationId}/openapi.`);
}
