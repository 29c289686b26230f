import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { isUniqueViolation } from '../../db/dialect.ts';
import { BadRequest, Conflict } from '../../errors.ts';
import { after, paginate, type Page, type PageRequest } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import type { OrganizationActor } from '../../policy/index.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import { findOrCreateUser } from '../users/service.ts';
import { organizationAccess, ownsTeamIn, type OrganizationRow } from '../../access/organizations.ts';
import type { UpdateOrganizationBody } from './schemas.ts';

export interface OrganizationView {
  organization: OrganizationRow;
  actor: OrganizationActor;
  /** What the view was read from, when it may be kept by identity (OrganizationAccess's `source`). */
  source?: object;
}

export interface NewOrganization {
  title: string;
  ownerEmail: string;
  ownerName?: string;
}

/** Creates an organization with its owner as an admin member (the user is created if needed). */
export async function createOrganization(ctx: Context, input: NewOrganization) {
  return inTransaction(ctx, async (tx) => {
    const owner = await findOrCreateUser(tx, input.ownerEmail, input.ownerName);
    const now = nowIso(tx);
    const organization: OrganizationRow = {
      id: tx.ids.next(),
      title: input.title,
      created_at: now,
      hostname: null,
      type: 'business',
      use_case: null,
      community_type: null,
      default_role: 'read',
      default_content: null,
      logo_url: null,
      sso: 0,
      ai: 0,
      invite_links: 1,
      translation_engine: null,
      plan: 'enterprise_2024',
      email_domains: '[]',
      signing_key: tx.secrets.encrypt(randomBytes(32)),
    };
    await tx.db.insertInto('organizations').values(organization).execute();
    await tx.db
      .insertInto('members')
      .values({ organization_id: organization.id, user_id: owner.id, role: 'admin', disabled: 0, sso: 0, joined_at: now, last_seen_at: null })
      .execute();
    return { organization, owner };
  });
}

/** The organizations the caller belongs to (as a member or a guest), oldest first. */
export async function listOrganizations(ctx: Context, request: PageRequest): Promise<Page<OrganizationView>> {
  const actor = requireActor(ctx);
  const base = ctx.db
    .selectFrom('organizations')
    .innerJoin('members', 'members.organization_id', 'organizations.id')
    .where('members.user_id', '=', actor.userId)
    .where('members.disabled', '=', 0);
  const page = await paginate({
    signer: ctx.cursors,
    scope: `orgs:${actor.userId}`,
    request,
    count: async () => (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
    fetch: (cursor, take) =>
      base
        .selectAll('organizations')
        .select('members.role as member_role')
        .select(ownsTeamIn(actor.userId).as('owns_team'))
        .$if(cursor !== undefined, (q) => q.where(after('organizations.created_at', 'organizations.id', 'asc', cursor!)))
        .orderBy('organizations.created_at', 'asc')
        .orderBy('organizations.id', 'asc')
        .limit(take)
        .execute(),
    key: (row) => [row.created_at, row.id],
  });
  return {
    ...page,
    items: page.items.map(({ member_role, owns_team, ...organization }) => ({
      organization,
      actor: { userId: actor.userId, role: member_role as MemberRoleOrGuest, ownsTeam: Boolean(owns_team) },
    })),
  };
}

export async function getOrganization(ctx: Context, organizationId: string): Promise<OrganizationView> {
  const { organization, actor, source } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'organization.view', actor);
  return { organization, actor, source };
}

export async function updateOrganization(ctx: Context, organizationId: string, patch: UpdateOrganizationBody): Promise<OrganizationView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'organization.admin', actor);
    if (patch.defaultContent) {
      // Sites belong to the organization; a pointer must name one of them.
      throw new BadRequest(`The body member "defaultContent.site" names site "${patch.defaultContent.site}", which does not exist in this organization.`);
    }
    const changes: Partial<OrganizationRow> = {};
    if (patch.title !== undefined) {
      changes.title = patch.title.trim();
      if (changes.title.length < 2) throw new BadRequest('The body member "title" needs at least 2 characters besides spaces: give the organization\'s name.');
    }
    if (patch.hostname !== undefined) changes.hostname = patch.hostname;
    if (patch.defaultRole !== undefined) changes.default_role = patch.defaultRole;
    if (patch.defaultContent === null) changes.default_content = null;
    if (patch.logo !== undefined) changes.logo_url = patch.logo;
    const domains = patch.emailDomains && [...new Set(patch.emailDomains.map((d) => d.toLowerCase()))].sort();
    if (domains) changes.email_domains = JSON.stringify(domains);
    if (patch.sso !== undefined) changes.sso = patch.sso ? 1 : 0;
    if (patch.ai !== undefined) changes.ai = patch.ai ? 1 : 0;
    if (patch.inviteLinks !== undefined) changes.invite_links = patch.inviteLinks ? 1 : 0;
    if (Object.keys(changes).length > 0) {
      try {
        await tx.db.updateTable('organizations').set(changes).where('id', '=', organization.id).execute();
      } catch (error) {
        if (isUniqueViolation(tx.dialect, error)) throw new Conflict(`The hostname "${patch.hostname}" is already used by another organization.`);
        throw error;
      }
    }
    if (domains) {
      await tx.db.deleteFrom('organization_email_domains').where('organization_id', '=', organization.id).execute();
      if (domains.length > 0) {
        await tx.db.insertInto('organization_email_domains').values(domains.map((domain) => ({ organization_id: organization.id, domain }))).execute();
      }
    }
    return { organization: { ...organization, ...changes }, actor };
  });
}

/**
 * Organizations that declare `domain` in their emailDomains. So that nobody can enumerate who uses which
 * domain, a caller sees only what their own address's domain matches, plus organizations they belong to.
 */
export async function organizationsForEmailDomain(ctx: Context, domain: string): Promise<OrganizationView[]> {
  const actor = requireActor(ctx);
  const wanted = domain.trim().toLowerCase();
  const ownDomain = actor.email.split('@')[1]?.toLowerCase();
  const rows = await ctx.db
    .selectFrom('organization_email_domains as d')
    .innerJoin('organizations', 'organizations.id', 'd.organization_id')
    .leftJoin('members', (join) => join.onRef('members.organization_id', '=', 'organizations.id').on('members.user_id', '=', actor.userId))
    .selectAll('organizations')
    .select('members.role as member_role')
    .select('members.user_id as member_user')
    .where('d.domain', '=', wanted)
    .orderBy('organizations.created_at')
    .orderBy('organizations.id')
    .execute();
  const visible = rows.filter((row) => ownDomain === wanted || row.member_user !== null);
  return visible.map(({ member_role, member_user, ...organization }) => ({
    organization,
    // Someone who is not a member sees the organization as a prospective guest would: no rights in it.
    actor: { userId: actor.userId, role: member_user ? (member_role as MemberRoleOrGuest) : null, ownsTeam: false },
  }));
}
