import type { Context } from '../../context.ts';
import type { OpenAPISpecRow } from '../../access/openapi-specs.ts';
import type { OpenAPISpecActor } from '../../policy/index.ts';
import { openAPISpecPermissions } from '../../policy/openapi.ts';
import { publishedSpecUrl, versionFileUrl } from '../../openapi/urls.ts';
import type { OpenAPISpec, OpenAPISpecVersion } from './schemas.ts';

type UrlContext = Pick<Context, 'config'>;

export function specLocation(ctx: UrlContext, spec: Pick<OpenAPISpecRow, 'organization_id' | 'slug'>): string {
  return `${ctx.config.publicUrl}/v1/orgs/${encodeURIComponent(spec.organization_id)}/openapi/${encodeURIComponent(spec.slug)}`;
}

/**
 * A spec as the API shows it. Quire has no separate editing app, so `urls.app` is its API address;
 * `urls.published` exists only for public specs; `lastProcessError` is Quire's own sentence beside the code.
 */
export function presentSpec(ctx: UrlContext, row: OpenAPISpecRow, actor: OpenAPISpecActor): OpenAPISpec {
  const location = specLocation(ctx, row);
  const spec: OpenAPISpec = {
    object: 'openapi-spec',
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    slug: row.slug,
    processingState: row.processing_state as OpenAPISpec['processingState'],
    visibility: row.visibility === 'public' ? 'public' : 'private',
    permissions: openAPISpecPermissions(actor),
    urls: { location, app: location },
  };
  if (row.source_url) spec.sourceURL = row.source_url;
  if (row.last_version_id) spec.lastVersion = row.last_version_id;
  if (row.last_processed_at) spec.lastProcessedAt = row.last_processed_at;
  if (row.last_error_code) spec.lastProcessErrorCode = row.last_error_code as OpenAPISpec['lastProcessErrorCode'];
  if (row.last_error) spec.lastProcessError = row.last_error;
  if (row.visibility === 'public') spec.urls.published = publishedSpecUrl(ctx.config.publicUrl, row.organization_id, row.slug);
  return spec;
}

export interface VersionRow {
  id: string;
  created_at: string;
}

export function presentVersion(ctx: UrlContext, spec: OpenAPISpecRow, version: VersionRow): OpenAPISpecVersion {
  return {
    object: 'openapi-spec-version',
    id: version.id,
    createdAt: version.created_at,
    url: versionFileUrl(ctx.config.publicUrl, spec, version.id),
    urls: { location: `${specLocation(ctx, spec)}/versions/${encodeURIComponent(version.id)}` },
  };
}
