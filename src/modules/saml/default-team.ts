import type { Context } from '../../context.ts';
import { BadRequest } from '../../errors.ts';
import type { OrganizationActor } from '../../policy/index.ts';
import type { TeamRole } from '../../policy/roles.ts';
import type { TeamView } from '../../access/teams.ts';

/**
 * The default teams of some SAML providers, as the caller sees them: the team, how many members it has,
 * and the caller's own role in it. Spaces do not exist yet, so no team has any.
 */
export async function loadTeamViews(ctx: Context, organizationId: string, teamIds: string[], actor: OrganizationActor): Promise<Map<string, TeamView>> {
  const views = new Map<string, TeamView>();
  const ids = [...new Set(teamIds)];
  if (ids.length === 0) return views;
  const rows = await ctx.db
    .selectFrom('teams')
    .leftJoin('team_members as mine', (join) => join.onRef('mine.team_id', '=', 'teams.id').on('mine.user_id', '=', actor.userId))
    .select(['teams.id', 'teams.title', 'teams.created_at', 'mine.role as my_role'])
    .select((eb) => eb.selectFrom('team_members as tm').whereRef('tm.team_id', '=', 'teams.id').select((e) => e.fn.countAll<number>().as('n')).as('members'))
    .where('teams.organization_id', '=', organizationId)
    .where('teams.id', 'in', ids)
    .execute();
  for (const row of rows) {
    views.set(row.id, {
      id: row.id,
      title: row.title,
      createdAt: row.created_at,
      members: Number(row.members ?? 0),
      spaces: 0,
      actor: { ...actor, teamRole: (row.my_role as TeamRole | null) ?? null },
    });
  }
  return views;
}

/** Refuses a default team that is not a team of this organization. */
export async function requireTeamOfOrganization(ctx: Context, organizationId: string, teamId: string): Promise<void> {
  const team = await ctx.db.selectFrom('teams').select('id').where('id', '=', teamId).where('organization_id', '=', organizationId).executeTakeFirst();
  if (!team) {
    throw new BadRequest(`The body member "defaultTeam" names team "${teamId}", which does not exist in this organization. Pass the id of one of its teams, or null for none.`);
  }
}
