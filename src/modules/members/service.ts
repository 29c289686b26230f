import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction } from '../../context.ts';
import type { DB } from '../../db/types.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { after, paginate, type Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { removeGrantsTo } from '../../access/grants.ts';
import type { MemberView } from './views.ts';
import { activeAdminCount, containsText, findMember, lockOrganization, membersQuery, requireMember, toMemberView } from './queries.ts';
import type { ListMembersQuery, UpdateMemberBody } from './schemas.ts';

const SORT_COLUMNS = { joinedAt: 'members.joined_at', lastSeenAt: 'members.last_seen_at' } as const;

/** The conditions of a member listing: the organization, the role filter, the text filter, and "seen" for lastSeenAt. */
function memberFilter(organizationId: string, query: ListMembersQuery) {
  return (eb: ExpressionBuilder<DB, 'members' | 'users'>) => {
    const conditions: Expression<SqlBool>[] = [eb('members.organization_id', '=', organizationId)];
    if (query.role === 'guest') conditions.push(eb('members.role', 'is', null));
    else if (query.role) conditions.push(eb('members.role', '=', query.role));
    if (query.sort === 'lastSeenAt') conditions.push(eb('members.last_seen_at', 'is not', null));
    if (query.search) conditions.push(eb.or([containsText('users.display_name', query.search), containsText('users.email', query.search)]));
    return eb.and(conditions);
  };
}

/**
 * The members of an organization (disabled ones included, flagged), newest first by default. Sorting by
 * lastSeenAt lists only the members who have been seen at least once. Ties are broken by user id.
 */
export async function listMembers(ctx: Context, organizationId: string, query: ListMembersQuery): Promise<Page<MemberView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'members.list', actor);
  const sort = query.sort ?? 'joinedAt';
  const order = query.order ?? 'desc';
  const column = SORT_COLUMNS[sort];
  const filter = memberFilter(organization.id, { ...query, sort });
  const page = await paginate({
    signer: ctx.cursors,
    scope: `members:${organization.id}:${sort}:${order}:${query.role ?? '*'}:${JSON.stringify(query.search ?? '')}`,
    request: query,
    count: async () =>
      (
        await ctx.db
          .selectFrom('members')
          .innerJoin('users', 'users.id', 'members.user_id')
          .where(filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    fetch: (cursor, take) =>
      membersQuery(ctx, organization.id)
        .where(filter)
        .$if(cursor !== undefined, (q) => q.where(after(column, 'members.user_id', order, cursor!)))
        .orderBy(column, order)
        .orderBy('members.user_id', order)
        .limit(take)
        .execute(),
    key: (row) => [(sort === 'lastSeenAt' ? row.last_seen_at : row.joined_at) ?? '', row.id],
  });
  return { ...page, count: Number(page.count), items: page.items.map(toMemberView) };
}

/** One member. Members see anyone's membership; a guest sees only their own. */
export async function getMember(ctx: Context, organizationId: string, userId: string): Promise<MemberView> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'members.view', actor, userId);
  return requireMember(ctx, organization.id, userId);
}

function lastAdminConflict(userId: string, action: string): Conflict {
  return new Conflict(
    `Member "${userId}" is the last administrator of this organization and cannot be ${action}: make another member an administrator first.`,
  );
}

/**
 * Changes the role of a member (administrators only). The last enabled administrator cannot be demoted,
 * so that every organization keeps someone who can manage it. A body without `role` changes nothing.
 */
export async function updateMember(ctx: Context, organizationId: string, userId: string, patch: UpdateMemberBody): Promise<MemberView> {
  return inTransaction(ctx, async (tx) => {
    await lockOrganization(tx, organizationId);
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'members.update', actor);
    const member = await requireMember(tx, organization.id, userId);
    if (patch.role === undefined || patch.role === member.role) return member;
    if (member.role === 'admin' && !member.disabled && (await activeAdminCount(tx, organization.id)) <= 1) {
      throw lastAdminConflict(userId, 'demoted');
    }
    await tx.db
      .updateTable('members')
      .set({ role: patch.role })
      .where('organization_id', '=', organization.id)
      .where('user_id', '=', userId)
      .execute();
    return { ...member, role: patch.role };
  });
}

/**
 * Removes a member from the organization: administrators remove anyone, anybody may leave. The member's
 * team memberships in this organization go with it; the user, their tokens and what they wrote stay.
 * Answers false when the user was not a member. The last enabled administrator cannot be removed.
 */
export async function removeMember(ctx: Context, organizationId: string, userId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    await lockOrganization(tx, organizationId);
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'members.remove', actor, userId);
    const member = await findMember(tx, organization.id, userId);
    if (!member) return false;
    if (member.role === 'admin' && !member.disabled && (await activeAdminCount(tx, organization.id)) <= 1) {
      throw lastAdminConflict(userId, 'removed');
    }
    await tx.db
      .deleteFrom('team_members')
      .where('user_id', '=', userId)
      .where('team_id', 'in', (eb) => eb.selectFrom('teams').select('teams.id').where('teams.organization_id', '=', organization.id))
      .execute();
    await removeGrantsTo(tx, organization.id, 'user', userId);
    await tx.db.deleteFrom('members').where('organization_id', '=', organization.id).where('user_id', '=', userId).execute();
    return true;
  });
}

/**
 * Marks a member as an SSO member (administrators only); the member keeps their role. A user who is not a
 * member is refused like any other stranger to the organization: this operation must never pull a user of
 * another organization in (and show their e-mail address to its administrators); people join through an
 * invitation or by signing in with the organization's SAML provider.
 */
export async function setSsoMember(ctx: Context, organizationId: string, userId: string): Promise<MemberView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'members.sso', actor);
    const updated = await tx.db
      .updateTable('members')
      .set({ sso: 1 })
      .where('organization_id', '=', organization.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      throw new NotFound(`No member "${userId}" exists in this organization: only members can be made SSO members. Invite the person first.`);
    }
    return requireMember(tx, organization.id, userId);
  });
}
