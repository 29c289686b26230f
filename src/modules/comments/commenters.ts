import type { Context } from '../../context.ts';
import { after, paginate, type Page } from '../../db/keyset.ts';
import type { MemberView } from '../members/views.ts';
import { membersQuery, toMemberView } from '../members/queries.ts';
import { commentScope, type CommentScope } from '../../access/comments.ts';
import type { CommentPlace, ListCommentersQuery } from './schemas.ts';

/**
 * The members of the space's organization who wrote in a discussion (a comment or a reply), by display
 * name then id. Authors who have left the organization are not members any more and are not listed.
 */
export async function listCommenters(ctx: Context, place: CommentPlace, query: ListCommentersQuery): Promise<Page<MemberView>> {
  const scope = await commentScope(ctx, place);
  const organizationId = scope.space.organization_id;
  const authors = authorIds(ctx, scope);
  const page = await paginate({
    signer: ctx.cursors,
    scope: `commenters:${scope.space.id}:${scope.changeRequest?.id ?? ''}`,
    request: query,
    count: async () =>
      Number(
        (
          await ctx.db
            .selectFrom('members')
            .where('members.organization_id', '=', organizationId)
            .where('members.user_id', 'in', authors)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    fetch: (cursor, take) =>
      membersQuery(ctx, organizationId)
        .where('members.user_id', 'in', authors)
        .$if(cursor !== undefined, (q) => q.where(after('users.display_name', 'users.id', 'asc', cursor!)))
        .orderBy('users.display_name', 'asc')
        .orderBy('users.id', 'asc')
        .limit(take)
        .execute(),
    key: (row) => [row.display_name, row.id],
  });
  return { ...page, items: page.items.map(toMemberView) };
}

/** The ids of everyone who wrote a comment or a reply in this discussion, as a subquery. */
function authorIds(ctx: Context, scope: CommentScope) {
  const comments = ctx.db
    .selectFrom('comments')
    .select('comments.author_id')
    .where('comments.space_id', '=', scope.space.id)
    .where((eb) => (scope.changeRequest ? eb('comments.change_request_id', '=', scope.changeRequest.id) : eb('comments.change_request_id', 'is', null)));
  const replies = ctx.db
    .selectFrom('comment_replies')
    .innerJoin('comments', 'comments.id', 'comment_replies.comment_id')
    .select('comment_replies.author_id as author_id')
    .where('comments.space_id', '=', scope.space.id)
    .where((eb) => (scope.changeRequest ? eb('comments.change_request_id', '=', scope.changeRequest.id) : eb('comments.change_request_id', 'is', null)));
  return comments.union(replies);
}
