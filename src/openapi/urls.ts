/**
 * Where a spec's bundled description can be read. A public spec's latest version is served to anyone at
 * `{QUIRE_PUBLIC_URL}/openapi/{organizationId}/{slug}` (JSON; `.yaml` or `Accept: application/yaml` for
 * YAML); a version of any spec is served to members at its `/v1/…/versions/{id}/openapi.json`, and to
 * anyone when the spec is public at `/openapi/{organizationId}/{slug}/versions/{id}`.
 */
export function publishedSpecUrl(publicUrl: string, organizationId: string, slug: string): string {
  return `${publicUrl}/openapi/${encodeURIComponent(organizationId)}/${encodeURIComponent(slug)}`;
}

export function versionFileUrl(publicUrl: string, spec: { organization_id: string; slug: string; visibility: string }, versionId: string): string {
  if (spec.visibility === 'public') return `${publishedSpecUrl(publicUrl, spec.organization_id, spec.slug)}/versions/${encodeURIComponent(versionId)}`;
  return `${publicUrl}/v1/orgs/${encodeURIComponent(spec.organization_id)}/openapi/${encodeURIComponent(spec.slug)}/versions/${encodeURIComponent(versionId)}/openapi.json`;
}
