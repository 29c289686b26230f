import type { Context } from '../../context.ts';
import { after, paginate, type Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import type { MemberRole } from '../../policy/roles.ts';
import { effectiveLevel, type StoredLevel } from '../../policy/space.ts';
import { requireMember } from '../members/queries.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { accessibleBy, orGranted, spaceActorFor, spaceGrantRank, spaceResolvedLevel, spaceViewableBy, withContentLevels } from '../../access/levels.ts';
import { loadGrants, raisedLevel, roleOfRank } from '../../access/grants.ts';
import type { MemberSpaceView } from './views.ts';
import type { ListMemberSpacesQuery } from './schemas.ts';

/**
 * The spaces a member of the organization can access (they have a level on them: at least read), with that
 * level, newest first by default. Members may ask about anyone, guests about themselves. Only spaces the
 * caller can see are listed, so nobody learns the titles of spaces hidden from them; spaces anyone may read
 * (public, unlisted) are listed only where the member has a level. A guest or a disabled member has none.
 */
export async function listMemberSpaces(ctx: Context, organizationId: string, userId: string, query: ListMemberSpacesQuery): Promise<Page<MemberSpaceView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'members.spaces', actor, userId);
  const member = await requireMember(ctx, organization.id, userId);
  const memberRole = member.disabled ? null : member.role;
  const order = query.order ?? 'desc';
  const [grants, ofMember] = await Promise.all([
    loadGrants(ctx, organization.id, actor.userId),
    member.disabled ? Promise.resolve(null) : loadGrants(ctx, organization.id, userId),
  ]);
  const granted = spaceGrantRank(grants);
  const memberGranted = spaceGrantRank(ofMember, 'member_collections');
  const base = withContentLevels(ctx.db, organization.id, grants, ofMember)
    .selectFrom('spaces')
    .leftJoin('collection_levels', 'collection_levels.id', 'spaces.collection_id')
    .where('spaces.organization_id', '=', organization.id)
    .where('spaces.deleted_at', 'is', null)
    .where(orGranted(accessibleBy(memberRole, spaceResolvedLevel), memberGranted))
    .where(orGranted(spaceViewableBy(actor.role, spaceResolvedLevel), granted));
  const page = await paginate({
    signer: ctx.cursors,
    scope: `member-spaces:${organization.id}:${userId}:${actor.userId}:${order}`,
    request: query,
    count: async () => Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    fetch: (cursor, take) =>
      base
        .selectAll('spaces')
        .select(spaceResolvedLevel.as('resolved_level'))
        .select(granted.as('granted_rank'))
        .select(memberGranted.as('member_rank'))
        .$if(cursor !== undefined, (q) => q.where(after('spaces.created_at', 'spaces.id', order, cursor!)))
        .orderBy('spaces.created_at', order)
        .orderBy('spaces.id', order)
        .limit(take)
        .execute(),
    key: (row) => [row.created_at, row.id],
  });
  return {
    ...page,
    items: page.items.map(({ resolved_level, granted_rank, member_rank, ...space }) => ({
      permission: raisedLevel(effectiveLevel(memberRole, [resolved_level as StoredLevel]), roleOfRank(member_rank)) as MemberRole,
      space,
      actor: spaceActorFor(actor.userId, actor.role, resolved_level, space.visibility, granted_rank),
    })),
  };
}
