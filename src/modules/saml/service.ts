import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { BadRequest, NotFound, nonBlank } from '../../errors.ts';
import { pageInCreationOrder, type Page, type PageRequest } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import type { OrganizationActor } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { canonicalCertificate } from './certificate.ts';
import { loadTeamViews, requireTeamOfOrganization } from './default-team.ts';
import type { SamlProviderRow } from '../../db/rows.ts';
import type { SamlProviderView, SsoLoginRow } from './views.ts';
import { UNSET_SSO_URL, type CreateSamlProviderBody, type UpdateSamlProviderBody } from './schemas.ts';

async function withDefaultTeams(ctx: Context, organizationId: string, rows: SamlProviderRow[], actor: OrganizationActor): Promise<SamlProviderView[]> {
  const teams = await loadTeamViews(ctx, organizationId, rows.flatMap((row) => (row.default_team_id ? [row.default_team_id] : [])), actor);
  return rows.map((provider) => ({ provider, defaultTeam: provider.default_team_id ? (teams.get(provider.default_team_id) ?? null) : null }));
}

function providerNotFound(samlProviderId: string): NotFound {
  return new NotFound(`No SAML provider "${samlProviderId}" exists in this organization.`);
}

async function findProvider(ctx: Context, organizationId: string, samlProviderId: string): Promise<SamlProviderRow | undefined> {
  return ctx.db.selectFrom('saml_providers').selectAll().where('id', '=', samlProviderId).where('organization_id', '=', organizationId).executeTakeFirst();
}

type ProviderMembers = Omit<UpdateSamlProviderBody, 'label'>;

/**
 * Turns the body members that were sent into column changes, checking what the schema cannot: a label
 * that is not blank, an http(s) address, a readable certificate, a team of this organization.
 * null, and "" for the text members, clear a member; so does the answer's own "unset" address.
 */
async function providerChanges(ctx: Context, organizationId: string, body: ProviderMembers & { label?: string }): Promise<Partial<SamlProviderRow>> {
  const changes: Partial<SamlProviderRow> = {};
  if (body.label !== undefined) {
    changes.label = nonBlank(body.label, 'label', 'give the name people will see on the sign-in page.');
  }
  if (body.entityID !== undefined) changes.entity_id = body.entityID?.trim() || null;
  if (body.ssoURL !== undefined) {
    if (body.ssoURL === null || body.ssoURL === UNSET_SSO_URL) {
      changes.sso_url = null;
    } else {
      if (!/^https?:\/\/[^/]/i.test(body.ssoURL)) {
        throw new BadRequest(`The body member "ssoURL" is "${body.ssoURL}"; it must be an http or https address, such as https://idp.example.com/saml/sso.`);
      }
      changes.sso_url = body.ssoURL;
    }
  }
  if (body.certificate !== undefined) {
    changes.certificate = body.certificate === null || body.certificate.trim() === '' ? null : canonicalCertificate(body.certificate);
  }
  if (body.defaultTeam !== undefined) {
    if (body.defaultTeam !== null) await requireTeamOfOrganization(ctx, organizationId, body.defaultTeam);
    changes.default_team_id = body.defaultTeam;
  }
  if (body.defaultRole !== undefined) changes.default_role = body.defaultRole;
  return changes;
}

/** The SAML providers of an organization, oldest first (administrators). */
export async function listSamlProviders(ctx: Context, organizationId: string, request: PageRequest): Promise<Page<SamlProviderView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'saml.manage', actor);
  const query = ctx.db.selectFrom('saml_providers').selectAll().where('organization_id', '=', organization.id);
  const page = await pageInCreationOrder(ctx.cursors, query, `saml:${organization.id}:created_at:asc`, request);
  return { ...page, items: await withDefaultTeams(ctx, organization.id, page.items, actor) };
}

export async function createSamlProvider(ctx: Context, organizationId: string, body: CreateSamlProviderBody): Promise<SamlProviderView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'saml.manage', actor);
    const changes = await providerChanges(tx, organization.id, body);
    const row: SamlProviderRow = {
      id: tx.ids.next(),
      organization_id: organization.id,
      label: changes.label ?? body.label,
      entity_id: changes.entity_id ?? null,
      sso_url: changes.sso_url ?? null,
      certificate: changes.certificate ?? null,
      default_team_id: changes.default_team_id ?? null,
      // People who log in through the provider join with the organization's default role unless told otherwise.
      default_role: changes.default_role !== undefined ? changes.default_role : organization.default_role,
      created_at: nowIso(tx),
    };
    await tx.db.insertInto('saml_providers').values(row).execute();
    const [view] = await withDefaultTeams(tx, organization.id, [row], actor);
    return view;
  });
}

export async function getSamlProvider(ctx: Context, organizationId: string, samlProviderId: string): Promise<SamlProviderView> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'saml.manage', actor);
  const row = await findProvider(ctx, organization.id, samlProviderId);
  if (!row) throw providerNotFound(samlProviderId);
  const [view] = await withDefaultTeams(ctx, organization.id, [row], actor);
  return view;
}

export async function updateSamlProvider(ctx: Context, organizationId: string, samlProviderId: string, body: UpdateSamlProviderBody): Promise<SamlProviderView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'saml.manage', actor);
    const row = await findProvider(tx, organization.id, samlProviderId);
    if (!row) throw providerNotFound(samlProviderId);
    const changes = await providerChanges(tx, organization.id, body);
    if (Object.keys(changes).length > 0) {
      await tx.db.updateTable('saml_providers').set(changes).where('id', '=', row.id).execute();
    }
    const [view] = await withDefaultTeams(tx, organization.id, [{ ...row, ...changes }], actor);
    return view;
  });
}

/** Deletes a provider; false when there was none by that id in the organization. */
export async function deleteSamlProvider(ctx: Context, organizationId: string, samlProviderId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'saml.manage', actor);
    const result = await tx.db.deleteFrom('saml_providers').where('id', '=', samlProviderId).where('organization_id', '=', organization.id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/**
 * How to log in to an organization: its SAML providers that are fully configured and its OpenID Connect
 * providers, oldest first (members and guests). The OpenID Connect providers are read from their table
 * here, not through their area, which builds on this one.
 */
export async function listSsoLogins(ctx: Context, organizationId: string): Promise<SsoLoginRow[]> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'organization.view', actor);
  const saml = await ctx.db
    .selectFrom('saml_providers')
    .select(['id', 'label', 'created_at'])
    .where('organization_id', '=', organization.id)
    .where('sso_url', 'is not', null)
    .where('entity_id', 'is not', null)
    .where('certificate', 'is not', null)
    .execute();
  const oidc = await ctx.db.selectFrom('oidc_providers').select(['id', 'label', 'created_at']).where('organization_id', '=', organization.id).execute();
  const rows = [...saml.map((row) => ({ ...row, kind: 'saml' as const })), ...oidc.map((row) => ({ ...row, kind: 'oidc' as const }))];
  rows.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.created_at < b.created_at ? -1 : 1));
  return rows.map(({ id, label, kind }) => ({ id, label, kind }));
}
