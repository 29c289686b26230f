import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { BadRequest, Forbidden, NotFound } from '../../errors.ts';
import { pageInCreationOrder, type Page, type PageRequest } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import type { LinkInviteRow } from '../../db/rows.ts';
import type { LinkInviteView } from './views.ts';
import type { CreateLinkInviteBody, UpdateLinkInviteBody } from './schemas.ts';
import { roleRank, type MemberRoleOrGuest } from '../../policy/roles.ts';
import { acceptInvitation } from './pending.ts';

function inviteNotFound(inviteId: string): NotFound {
  return new NotFound(`No invite link "${inviteId}" exists in this organization.`);
}

/**
 * Creates an invite link to the organization. Only organization invites exist for now: an invite to a
 * space or a collection names something this organization does not hold.
 */
export async function createLinkInvite(ctx: Context, organizationId: string, body: CreateLinkInviteBody): Promise<LinkInviteView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'invites.manage', actor);
    if ('space' in body) throw new BadRequest(`The body member "space" names space "${body.space}", which does not exist in this organization.`);
    if ('collection' in body) {
      throw new BadRequest(`The body member "collection" names collection "${body.collection}", which does not exist in this organization.`);
    }
    if (organization.invite_links !== 1) {
      throw new Forbidden(
        'Invite links are turned off in this organization. An administrator can turn them on with PATCH /v1/orgs/{organizationId} and "inviteLinks": true, or invite people by e-mail address instead.',
      );
    }
    const invite: LinkInviteRow = { id: tx.ids.next(), organization_id: organization.id, role: body.role, created_by: requireActor(tx).userId, created_at: nowIso(tx) };
    await tx.db.insertInto('link_invites').values(invite).execute();
    return { invite, actor };
  });
}

/** The invite links of an organization, newest first (administrators). */
export async function listLinkInvites(ctx: Context, organizationId: string, request: PageRequest): Promise<Page<LinkInviteView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'invites.manage', actor);
  const query = ctx.db.selectFrom('link_invites').selectAll().where('organization_id', '=', organization.id);
  const page = await pageInCreationOrder(ctx.cursors, query, `link-invites:${organization.id}:created_at:desc`, request, { direction: 'desc' });
  return { ...page, items: page.items.map((invite) => ({ invite, actor })) };
}

export async function getLinkInvite(ctx: Context, organizationId: string, inviteId: string): Promise<LinkInviteView> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'invites.manage', actor);
  const invite = await ctx.db.selectFrom('link_invites').selectAll().where('id', '=', inviteId).where('organization_id', '=', organization.id).executeTakeFirst();
  if (!invite) throw inviteNotFound(inviteId);
  return { invite, actor };
}

/** Deletes an invite link, so that it admits nobody any more; false when there was none by that id. */
export async function deleteLinkInvite(ctx: Context, organizationId: string, inviteId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'invites.manage', actor);
    const result = await tx.db.deleteFrom('link_invites').where('id', '=', inviteId).where('organization_id', '=', organization.id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/** Changes the role an invite link gives (administrators). Only organization invites exist, so `level` (content invites) is refused. */
export async function updateLinkInvite(ctx: Context, organizationId: string, inviteId: string, body: UpdateLinkInviteBody): Promise<LinkInviteView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'invites.manage', actor);
    if (!('role' in body)) throw new BadRequest('The body member "level" is for invites to a space or a collection; this invite is to the organization: send "role".');
    const result = await tx.db.updateTable('link_invites').set({ role: body.role }).where('id', '=', inviteId).where('organization_id', '=', organization.id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw inviteNotFound(inviteId);
    return getLinkInvite(tx, organization.id, inviteId);
  });
}

/**
 * Joins an organization through an invite link (any signed-in user: the link's id is its secret). A newcomer
 * becomes a member with the link's role; a member whose role is below it is raised to it, never lowered. A
 * disabled member is refused, and so is everyone while the organization has invite links turned off.
 * `inviteId` may also name an invitation made for the caller by address, which this accepts.
 */
export async function joinWithInvite(ctx: Context, organizationId: string, inviteId: string): Promise<void> {
  const user = requireActor(ctx);
  // An invitation made for this person by address (pending.ts) is accepted through the same operation.
  if (await acceptInvitation(ctx, organizationId, inviteId)) return;
  await inTransaction(ctx, async (tx) => {
    const invite = await tx.db
      .selectFrom('link_invites')
      .innerJoin('organizations', 'organizations.id', 'link_invites.organization_id')
      .select(['link_invites.role', 'organizations.invite_links', 'organizations.id as organization_id'])
      .where('link_invites.id', '=', inviteId)
      .where('link_invites.organization_id', '=', organizationId)
      .executeTakeFirst();
    if (!invite) throw new NotFound(`No invite link "${inviteId}" exists for organization "${organizationId}": ask its administrators for a new link.`);
    if (invite.invite_links !== 1) throw new Forbidden('Invite links are turned off in this organization: ask its administrators to invite you by e-mail address.');
    const member = await tx.db.selectFrom('members').select(['role', 'disabled']).where('organization_id', '=', invite.organization_id).where('user_id', '=', user.userId).executeTakeFirst();
    const role = invite.role as MemberRoleOrGuest;
    if (!member) {
      await tx.db.insertInto('members').values({ organization_id: invite.organization_id, user_id: user.userId, role, disabled: 0, sso: 0, joined_at: nowIso(tx), last_seen_at: null }).execute();
      return;
    }
    if (member.disabled) throw new Forbidden('Your membership of this organization is disabled: an invite link cannot enable it. Ask its administrators.');
    if (roleRank(role) > roleRank(member.role as MemberRoleOrGuest)) {
      await tx.db.updateTable('members').set({ role }).where('organization_id', '=', invite.organization_id).where('user_id', '=', user.userId).execute();
    }
  });
}
