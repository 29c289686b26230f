import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { requireActor } from '../context.ts';
import type { OrganizationRow } from '../db/rows.ts';
import { preparedQuery } from '../db/prepared.ts';
import { memoized } from '../db/memo.ts';
import { NotFound } from '../errors.ts';
import type { OrganizationActor } from '../policy/index.ts';
import type { MemberRoleOrGuest } from '../policy/roles.ts';

export type { OrganizationRow };

/** Whether `userId` owns a team of the outer query's `organizations` row (for `ownTeam` permissions). */
export function ownsTeamIn(userId: string) {
  return sql<number>`exists (select 1 from team_members tm join teams t on t.id = tm.team_id where tm.user_id = ${userId} and tm.role = 'owner' and t.organization_id = organizations.id)`;
}

/** The organization with the standing of one user in it; no row for outsiders. Runs on every organization route. */
const organizationWithStanding = memoized(preparedQuery((db, organizationId: string, userId: string) =>
  db
    .selectFrom('organizations')
    .innerJoin('members', (join) => join.onRef('members.organization_id', '=', 'organizations.id').on('members.user_id', '=', userId))
    .selectAll('organizations')
    .select(['members.role as member_role', 'members.disabled as member_disabled'])
    .select(ownsTeamIn(userId).as('owns_team'))
    .where('organizations.id', '=', organizationId),
));

/** The organization's own columns of a (shared) row with standing, split off once per row. */
const organizationColumns = new WeakMap<object, OrganizationRow>();

export interface OrganizationAccess {
  organization: OrganizationRow;
  actor: OrganizationActor;
  /**
   * The row both were read from, shared by every request while it is remembered (src/db/memo.ts) and a new
   * object once anything it came from is written: what is made from `organization` and `actor` alone may be
   * kept by this object's identity (the organization's answer: src/modules/orgs/routes.ts).
   */
  source: object;
}

/**
 * Loads an organization with the caller's standing in it, in one query. Outsiders get the same 404 as for
 * an organization that does not exist, so existence is not leaked.
 */
export async function organizationAccess(ctx: Context, organizationId: string): Promise<OrganizationAccess> {
  const user = requireActor(ctx);
  const [row] = await organizationWithStanding(ctx, organizationId, user.userId);
  if (!row || row.member_disabled) throw organizationNotFound(organizationId);
  // The row may be shared with other requests (memoized): copied, never changed. The organization's own
  // columns are split off once per row and each request gets a plain copy of them: a rest destructuring of
  // the row itself took V8's slow path on every request (issue 29's profile).
  let columns = organizationColumns.get(row);
  if (!columns) {
    const { member_role: _role, member_disabled: _disabled, owns_team: _owns, ...own } = row;
    columns = own;
    organizationColumns.set(row, columns);
  }
  return {
    organization: { ...columns },
    actor: { userId: user.userId, role: row.member_role as MemberRoleOrGuest, ownsTeam: Boolean(row.owns_team) },
    source: row,
  };
}

export function organizationNotFound(organizationId: string): NotFound {
  return new NotFound(`No organization "${organizationId}" exists that you are a member of.`);
}
