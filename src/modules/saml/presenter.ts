import type { Context } from '../../context.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import { oidcServiceUrls, samlServiceUrls as serviceUrls } from '../../sso/urls.ts';
import { presentTeam } from '../teams/presenter.ts';
import { UNSET_SSO_URL, type SamlProvider, type SamlProviderStatus, type SsoLogin } from './schemas.ts';
import type { SamlProviderRow } from '../../db/rows.ts';
import type { SamlProviderView, SsoLoginRow } from './views.ts';



export function samlProviderLocation(ctx: Pick<Context, 'config'>, organizationId: string, id: string): string {
  return `${ctx.config.publicUrl}/v1/orgs/${organizationId}/saml/${id}`;
}

/** This server's side of the SAML connection with one provider. */
export function samlServiceUrls(ctx: Pick<Context, 'config'>, id: string) {
  return serviceUrls(ctx.config, id);
}

/** A provider can be used to log in once the identity provider's address, entity ID and certificate are all known. */
export function samlProviderStatus(row: Pick<SamlProviderRow, 'sso_url' | 'entity_id' | 'certificate'>): SamlProviderStatus {
  return row.sso_url && row.entity_id && row.certificate ? 'active' : 'pending';
}

export function presentSamlProvider(ctx: Pick<Context, 'config'>, view: SamlProviderView): SamlProvider {
  const row = view.provider;
  const provider: SamlProvider = {
    object: 'saml-provider',
    id: row.id,
    label: row.label,
    ssoURL: row.sso_url ?? UNSET_SSO_URL,
    entityID: row.entity_id ?? '',
    certificate: row.certificate ?? '',
    defaultRole: row.default_role as MemberRoleOrGuest,
    createdAt: row.created_at,
    status: samlProviderStatus(row),
    service: samlServiceUrls(ctx, row.id),
    urls: { location: samlProviderLocation(ctx, row.organization_id, row.id) },
  };
  if (view.defaultTeam) provider.defaultTeam = presentTeam(ctx, view.defaultTeam);
  return provider;
}

export function presentSsoLogin(ctx: Pick<Context, 'config'>, row: SsoLoginRow): SsoLogin {
  const startURL = row.kind === 'oidc' ? oidcServiceUrls(ctx.config, row.id).startURL : samlServiceUrls(ctx, row.id).startURL;
  return { id: row.id, label: row.label, startURL };
}
