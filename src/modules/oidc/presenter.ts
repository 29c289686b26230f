import type { Context } from '../../context.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import { oidcServiceUrls } from '../../sso/urls.ts';
import { presentTeam } from '../teams/presenter.ts';
import type { OidcProvider } from './schemas.ts';
import type { OidcProviderView } from './views.ts';

export function oidcProviderLocation(ctx: Pick<Context, 'config'>, organizationId: string, id: string): string {
  return `${ctx.config.publicUrl}/v1/orgs/${organizationId}/oidc/${id}`;
}

/** The API object of a provider. The sealed client secret is never part of it: only whether one is stored. */
export function presentOidcProvider(ctx: Pick<Context, 'config'>, view: OidcProviderView): OidcProvider {
  const row = view.provider;
  const provider: OidcProvider = {
    object: 'oidc-provider',
    id: row.id,
    label: row.label,
    issuer: row.issuer,
    clientId: row.client_id,
    hasClientSecret: row.client_secret !== null,
    scopes: row.scopes.split(' '),
    defaultRole: row.default_role as MemberRoleOrGuest,
    createdAt: row.created_at,
    service: oidcServiceUrls(ctx.config, row.id),
    urls: { location: oidcProviderLocation(ctx, row.organization_id, row.id) },
  };
  if (view.defaultTeam) provider.defaultTeam = presentTeam(ctx, view.defaultTeam);
  return provider;
}
