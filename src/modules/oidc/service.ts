import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { BadRequest, NotFound, nonBlank } from '../../errors.ts';
import { pageInCreationOrder, type Page, type PageRequest } from '../../db/keyset.ts';
import { authorize, type OrganizationActor } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { loadTeamViews, requireTeamOfOrganization } from '../saml/default-team.ts';
import type { OidcProviderRow } from '../../db/rows.ts';
import type { OidcProviderView } from './views.ts';
import { DEFAULT_OIDC_SCOPES, type CreateOidcProviderBody, type UpdateOidcProviderBody } from './schemas.ts';

async function withDefaultTeams(ctx: Context, organizationId: string, rows: OidcProviderRow[], actor: OrganizationActor): Promise<OidcProviderView[]> {
  const teams = await loadTeamViews(ctx, organizationId, rows.flatMap((row) => (row.default_team_id ? [row.default_team_id] : [])), actor);
  return rows.map((provider) => ({ provider, defaultTeam: provider.default_team_id ? (teams.get(provider.default_team_id) ?? null) : null }));
}

function providerNotFound(oidcProviderId: string): NotFound {
  return new NotFound(`No OpenID Connect provider "${oidcProviderId}" exists in this organization.`);
}

async function findProvider(ctx: Context, organizationId: string, oidcProviderId: string): Promise<OidcProviderRow | undefined> {
  return ctx.db.selectFrom('oidc_providers').selectAll().where('id', '=', oidcProviderId).where('organization_id', '=', organizationId).executeTakeFirst();
}

/** An issuer is an http(s) URL without query or fragment (OpenID Connect Discovery 1.0, section 2), kept without a trailing slash. */
function canonicalIssuer(issuer: string): string {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new BadRequest(`The body member "issuer" is "${issuer}", which is not a URL. Give the provider's issuer, such as https://accounts.example.com.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BadRequest(`The body member "issuer" must be an https address (http only for a provider on a private network); it is "${issuer}".`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new BadRequest('The body member "issuer" must not carry a query, a fragment or credentials: give the issuer exactly as the provider names it.');
  }
  return issuer.replace(/\/+$/, '');
}

/** The scopes as stored: "openid" first, each once. */
function scopeText(scopes: readonly string[]): string {
  return [...new Set(['openid', ...scopes])].join(' ');
}

type ProviderMembers = UpdateOidcProviderBody;

async function providerChanges(ctx: Context, organizationId: string, body: ProviderMembers): Promise<Partial<OidcProviderRow>> {
  const changes: Partial<OidcProviderRow> = {};
  if (body.label !== undefined) {
    changes.label = nonBlank(body.label, 'label', 'give the name people will see on the sign-in page.');
  }
  if (body.issuer !== undefined) changes.issuer = canonicalIssuer(body.issuer);
  if (body.clientId !== undefined) {
    changes.client_id = nonBlank(body.clientId, 'clientId', 'give the client id the provider issued for Quire.');
  }
  if (body.clientSecret !== undefined) changes.client_secret = body.clientSecret === null ? null : ctx.secrets.encrypt(body.clientSecret);
  if (body.scopes !== undefined) changes.scopes = scopeText(body.scopes);
  if (body.defaultTeam !== undefined) {
    if (body.defaultTeam !== null) await requireTeamOfOrganization(ctx, organizationId, body.defaultTeam);
    changes.default_team_id = body.defaultTeam;
  }
  if (body.defaultRole !== undefined) changes.default_role = body.defaultRole;
  return changes;
}

/** The OpenID Connect providers of an organization, oldest first (administrators). */
export async function listOidcProviders(ctx: Context, organizationId: string, request: PageRequest): Promise<Page<OidcProviderView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'oidc.manage', actor);
  const query = ctx.db.selectFrom('oidc_providers').selectAll().where('organization_id', '=', organization.id);
  const page = await pageInCreationOrder(ctx.cursors, query, `oidc:${organization.id}:created_at:asc`, request);
  return { ...page, items: await withDefaultTeams(ctx, organization.id, page.items, actor) };
}

export async function createOidcProvider(ctx: Context, organizationId: string, body: CreateOidcProviderBody): Promise<OidcProviderView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'oidc.manage', actor);
    const changes = await providerChanges(tx, organization.id, body);
    const row: OidcProviderRow = {
      id: tx.ids.next(),
      organization_id: organization.id,
      label: changes.label ?? body.label,
      issuer: changes.issuer ?? body.issuer,
      client_id: changes.client_id ?? body.clientId,
      client_secret: changes.client_secret ?? null,
      scopes: changes.scopes ?? scopeText(DEFAULT_OIDC_SCOPES),
      default_team_id: changes.default_team_id ?? null,
      // People who join through the provider get the organization's default role unless told otherwise.
      default_role: changes.default_role !== undefined ? changes.default_role : organization.default_role,
      created_at: nowIso(tx),
    };
    await tx.db.insertInto('oidc_providers').values(row).execute();
    const [view] = await withDefaultTeams(tx, organization.id, [row], actor);
    return view;
  });
}

export async function getOidcProvider(ctx: Context, organizationId: string, oidcProviderId: string): Promise<OidcProviderView> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'oidc.manage', actor);
  const row = await findProvider(ctx, organization.id, oidcProviderId);
  if (!row) throw providerNotFound(oidcProviderId);
  const [view] = await withDefaultTeams(ctx, organization.id, [row], actor);
  return view;
}

export async function updateOidcProvider(ctx: Context, organizationId: string, oidcProviderId: string, body: UpdateOidcProviderBody): Promise<OidcProviderView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'oidc.manage', actor);
    const row = await findProvider(tx, organization.id, oidcProviderId);
    if (!row) throw providerNotFound(oidcProviderId);
    const changes = await providerChanges(tx, organization.id, body);
    if (Object.keys(changes).length > 0) await tx.db.updateTable('oidc_providers').set(changes).where('id', '=', row.id).execute();
    const [view] = await withDefaultTeams(tx, organization.id, [{ ...row, ...changes }], actor);
    return view;
  });
}

/** Deletes a provider; false when there was none by that id in the organization. */
export async function deleteOidcProvider(ctx: Context, organizationId: string, oidcProviderId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'oidc.manage', actor);
    const result = await tx.db.deleteFrom('oidc_providers').where('id', '=', oidcProviderId).where('organization_id', '=', organization.id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}
