import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { pageInCreationOrder, type Page, type PageRequest } from '../../db/keyset.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import { assertHttp } from '../../net/fetch.ts';
import { allows, authorize, type OpenAPISpecActor } from '../../policy/index.ts';
import { openAPISpecRules } from '../../policy/openapi.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { findSpecBySlug, openAPISpecAccess, specActorOf, specNotFound, type OpenAPISpecRow } from '../../access/openapi-specs.ts';
import { cancelProcessing, enqueueProcessing } from '../../openapi/process-job.ts';
import type { CreateSpecBody, SpecSource } from './schemas.ts';

/**
 * OpenAPI specifications of an organization. Every write that changes the source enqueues the processing
 * job in its own transaction (src/openapi/process-job.ts), which fetches, validates, bundles and versions it.
 */

export interface SpecView {
  row: OpenAPISpecRow;
  actor: OpenAPISpecActor;
}

function sourceColumns(source: SpecSource): { source_url: string | null; source_text: string | null } {
  if ('url' in source) {
    let url: URL;
    try {
      url = new URL(source.url);
    } catch {
      throw new BadRequest(`The body member "source.url" is not an absolute URL: "${source.url}".`);
    }
    assertHttp(url, 'The OpenAPI source URL');
    return { source_url: url.href, source_text: null };
  }
  return { source_url: null, source_text: source.text };
}

/** GET /orgs/{organizationId}/openapi: members see every spec, guests the public ones. */
export async function listSpecs(ctx: Context, organizationId: string, request: PageRequest): Promise<Page<SpecView>> {
  const access = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'openapi.list', access.actor);
  const guest = access.actor.role === null;
  const query = ctx.db
    .selectFrom('openapi_specs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .$if(guest, (q) => q.where('visibility', '=', 'public'));
  const page = await pageInCreationOrder(ctx.cursors, query, `openapi-specs:${organizationId}:${guest ? 'public' : 'all'}`, request);
  return { ...page, items: page.items.map((row) => ({ row, actor: specActorOf(access, row) })) };
}

/** A spec the caller may see, else 404 (a private spec is not shown to guests). */
export async function getSpec(ctx: Context, organizationId: string, slug: string): Promise<SpecView> {
  const { spec, specActor } = await openAPISpecAccess(ctx, organizationId, slug);
  if (!spec || !specActor || !allows(ctx, 'openapi.view', specActor)) throw specNotFound(slug);
  return { row: spec, actor: specActor };
}

async function insertSpec(tx: Context, organizationId: string, slug: string, source: SpecSource, actor: OpenAPISpecActor): Promise<SpecView> {
  const now = nowIso(tx);
  const row: OpenAPISpecRow = {
    id: tx.ids.next(),
    organization_id: organizationId,
    slug,
    ...sourceColumns(source),
    visibility: 'private',
    processing_state: 'pending',
    last_version_id: null,
    last_processed_at: null,
    last_error_code: null,
    last_error: null,
    created_by: requireActor(tx).userId,
    created_at: now,
    updated_at: now,
  };
  await tx.db.insertInto('openapi_specs').values(row).execute();
  await enqueueProcessing(tx, row.id);
  return { row, actor };
}

/** POST /orgs/{organizationId}/openapi: 409 when the slug is taken. */
export async function createSpec(ctx: Context, organizationId: string, body: CreateSpecBody): Promise<SpecView> {
  const access = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'openapi.create', access.actor);
  sourceColumns(body.source);
  return inTransaction(ctx, async (tx) => {
    if (await findSpecBySlug(tx, organizationId, body.slug)) {
      throw new Conflict(`An OpenAPI specification with the slug "${body.slug}" already exists in this organization: choose another slug, or update it with PUT /v1/orgs/${organizationId}/openapi/${body.slug}.`);
    }
    return insertSpec(tx, organizationId, body.slug, body.source, { organization: access.actor, visibility: 'private' });
  });
}

/** PUT /orgs/{organizationId}/openapi/{specSlug}: creates the spec, or gives it a new source and processes it again. */
export async function putSpec(ctx: Context, organizationId: string, slug: string, source: SpecSource): Promise<SpecView & { created: boolean }> {
  const access = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'openapi.put', access.actor);
  if (slug.length > 100 || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) {
    throw new BadRequest(`The slug "${slug.slice(0, 120)}" is not valid: use 1 to 100 lower-case letters and digits in words joined by single hyphens, e.g. "payments-api".`);
  }
  const columns = sourceColumns(source);
  return inTransaction(ctx, async (tx) => {
    const existing = await findSpecBySlug(tx, organizationId, slug);
    if (!existing) return { ...(await insertSpec(tx, organizationId, slug, source, { organization: access.actor, visibility: 'private' })), created: true };
    const changes = { ...columns, processing_state: 'pending', updated_at: nowIso(tx) };
    await tx.db.updateTable('openapi_specs').set(changes).where('id', '=', existing.id).execute();
    await enqueueProcessing(tx, existing.id);
    const row = { ...existing, ...changes };
    return { row, actor: specActorOf(access, row), created: false };
  });
}

/** PATCH /orgs/{organizationId}/openapi/{specSlug}: only the visibility changes. */
export async function updateSpecVisibility(ctx: Context, organizationId: string, slug: string, visibility: 'private' | 'public'): Promise<SpecView> {
  const { row, actor } = await getSpec(ctx, organizationId, slug);
  authorize(ctx, 'openapi.edit', actor);
  const changes = { visibility, updated_at: nowIso(ctx) };
  await ctx.db.updateTable('openapi_specs').set(changes).where('id', '=', row.id).execute();
  const updated = { ...row, ...changes };
  return { row: updated, actor: { ...actor, visibility } };
}

/** DELETE /orgs/{organizationId}/openapi/{specSlug}: the spec, its versions and its pending processing; false when there was none. */
export async function deleteSpec(ctx: Context, organizationId: string, slug: string): Promise<boolean> {
  const { spec, specActor } = await openAPISpecAccess(ctx, organizationId, slug);
  const visible = spec && specActor && openAPISpecRules.view(specActor);
  authorize(ctx, 'openapi.delete', visible ? specActor : null);
  if (!visible) return false;
  return inTransaction(ctx, async (tx) => {
    await tx.db.deleteFrom('openapi_spec_versions').where('spec_id', '=', spec.id).execute();
    const deleted = await tx.db.deleteFrom('openapi_specs').where('id', '=', spec.id).executeTakeFirst();
    await cancelProcessing(tx, spec.id);
    return Number(deleted.numDeletedRows) > 0;
  });
}

/** A version of a spec, as stored. */
export interface VersionRecord {
  id: string;
  created_at: string;
}

export async function listVersions(ctx: Context, organizationId: string, slug: string, request: PageRequest): Promise<{ spec: OpenAPISpecRow; page: Page<VersionRecord> }> {
  const { row } = await getSpec(ctx, organizationId, slug);
  const query = ctx.db.selectFrom('openapi_spec_versions').select(['id', 'created_at']).where('spec_id', '=', row.id);
  const page = await pageInCreationOrder(ctx.cursors, query, `openapi-versions:${row.id}`, request, { direction: 'desc' });
  return { spec: row, page };
}

function noVersion(slug: string, versionId: string | null): NotFound {
  return versionId === null
    ? new NotFound(`The OpenAPI specification "${slug}" has no processed version yet: wait for processing to complete (see its processingState and lastProcessError).`)
    : new NotFound(`The OpenAPI specification "${slug}" has no version "${versionId}": list them with GET …/openapi/${slug}/versions.`);
}

/** The latest version (versionId null) or one by id, with its content when asked. */
export async function getVersion(ctx: Context, organizationId: string, slug: string, versionId: string | null, withContent: boolean): Promise<{ spec: OpenAPISpecRow; version: VersionRecord & { content?: string } }> {
  const { row } = await getSpec(ctx, organizationId, slug);
  const id = versionId ?? row.last_version_id;
  if (!id) throw noVersion(slug, null);
  const columns = withContent ? (['id', 'created_at', 'content'] as const) : (['id', 'created_at'] as const);
  const version = await ctx.db.selectFrom('openapi_spec_versions').select(columns).where('spec_id', '=', row.id).where('id', '=', id).executeTakeFirst();
  if (!version) throw noVersion(slug, versionId);
  return { spec: row, version };
}

/**
 * A version of a public spec as served without a token: the latest when `versionId` is null. A private
 * spec, a missing one and one without a version all get the same 404, so nothing private leaks.
 */
export async function publishedVersion(ctx: Pick<Context, 'db'>, organizationId: string, slug: string, versionId: string | null): Promise<{ content: string; content_hash: string }> {
  const spec = await findSpecBySlug(ctx, organizationId, slug);
  const id = versionId ?? spec?.last_version_id ?? null;
  const version = spec && spec.visibility === 'public' && id
    ? await ctx.db.selectFrom('openapi_spec_versions').select(['content', 'content_hash']).where('spec_id', '=', spec.id).where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!version) throw new NotFound(`No public OpenAPI specification "${slug}" is published here.`);
  return version;
}
