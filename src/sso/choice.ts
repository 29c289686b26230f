import type { Context } from '../context.ts';
import { oidcServiceUrls, samlServiceUrls } from './urls.ts';

/** A way in a person may choose on /sign-in/sso. */
export interface SsoChoice {
  organizationTitle: string;
  label: string;
  startURL: string;
}

/**
 * The single sign-on providers for an e-mail address (those of the organizations that declare its domain)
 * or for an organization named by its id: fully configured SAML providers and OpenID Connect providers.
 * It tells no more than the organizations' SSO lists and the e-mail-domain lookup of the API already do.
 */
export async function findSsoChoices(ctx: Context, query: { email?: string; organization?: string }): Promise<SsoChoice[]> {
  let organizationIds: string[] = [];
  const email = query.email?.trim().toLowerCase();
  if (email && email.includes('@')) {
    const domain = email.slice(email.lastIndexOf('@') + 1);
    organizationIds = (await ctx.db.selectFrom('organization_email_domains').select('organization_id').where('domain', '=', domain).execute()).map((r) => r.organization_id);
  }
  const organization = query.organization?.trim();
  if (organization) organizationIds.push(organization);
  if (organizationIds.length === 0) return [];
  const organizations = await ctx.db.selectFrom('organizations').select(['id', 'title']).where('id', 'in', organizationIds).execute();
  if (organizations.length === 0) return [];
  const titles = new Map(organizations.map((o) => [o.id, o.title]));
  const ids = [...titles.keys()];
  const saml = await ctx.db
    .selectFrom('saml_providers')
    .select(['id', 'label', 'organization_id', 'created_at'])
    .where('organization_id', 'in', ids)
    .where('sso_url', 'is not', null)
    .where('entity_id', 'is not', null)
    .where('certificate', 'is not', null)
    .execute();
  const oidc = await ctx.db.selectFrom('oidc_providers').select(['id', 'label', 'organization_id', 'created_at']).where('organization_id', 'in', ids).execute();
  const rows = [
    ...saml.map((r) => ({ ...r, startURL: samlServiceUrls(ctx.config, r.id).startURL })),
    ...oidc.map((r) => ({ ...r, startURL: oidcServiceUrls(ctx.config, r.id).startURL })),
  ].sort((a, b) => (a.organization_id === b.organization_id ? (a.created_at < b.created_at ? -1 : 1) : (titles.get(a.organization_id)! < titles.get(b.organization_id)! ? -1 : 1)));
  return rows.map((r) => ({ organizationTitle: titles.get(r.organization_id)!, label: r.label, startURL: r.startURL }));
}
