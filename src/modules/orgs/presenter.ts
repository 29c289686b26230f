import type { Context } from '../../context.ts';
import { organizationPermissions } from '../../policy/organization.ts';
import type { OrganizationActor } from '../../policy/index.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import type { OrganizationRow } from '../../access/organizations.ts';
import type { Organization } from './schemas.ts';

/**
 * Quire is self-hosted and gates nothing behind a plan: every organization reports the plan with every
 * feature, and no trial. Quire has no separate editing app, so `urls.app` is the organization's API address.
 */
const PLAN = 'enterprise_2024';

export function organizationLocation(ctx: Pick<Context, 'config'>, id: string): string {
  return `${ctx.config.publicUrl}/v1/orgs/${id}`;
}

export function presentOrganization(ctx: Pick<Context, 'config'>, row: OrganizationRow, actor: OrganizationActor): Organization {
  const location = organizationLocation(ctx, row.id);
  const organization: Organization = {
    object: 'organization',
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    emailDomains: JSON.parse(row.email_domains) as string[],
    type: row.type as Organization['type'],
    defaultRole: row.default_role as MemberRoleOrGuest,
    sso: row.sso === 1,
    ai: row.ai === 1,
    inviteLinks: row.invite_links === 1,
    plan: PLAN,
    urls: { location, app: location },
    trial: { status: 'notapplicable' },
    internal_isOnNewTrial: true,
    permissions: organizationPermissions(actor),
  };
  if (row.hostname) organization.hostname = row.hostname;
  if (row.use_case) organization.useCase = row.use_case as Organization['useCase'];
  if (row.community_type) organization.communityType = row.community_type as Organization['communityType'];
  if (row.default_content) organization.defaultContent = JSON.parse(row.default_content);
  if (row.logo_url) organization.urls.logo = row.logo_url;
  return organization;
}
