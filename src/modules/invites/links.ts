import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { BadRequest, Forbidden, NotFound } from '../../errors.ts';
import { pageInCreationOrder, type Page, type PageRequest } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import type { LinkInviteRow, LinkInviteView } from './presenter.ts';
import type { CreateLinkInviteBody } from './schemas.ts';

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
