import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { pageInCreationOrder, type Page, type PageRequest } from '../db/keyset.ts';
import type { Context } from '../context.ts';
import { NotFound } from '../errors.ts';
import type { TeamActor } from '../policy/index.ts';
import type { TeamRole } from '../policy/roles.ts';
import { organizationAccess } from './organizations.ts';

/**
 * How many spaces a team was given a role on (sharing, src/access/grants.ts), as an SQL expression over the
 * outer `teams` row: the live spaces granted to it directly (what its collections hold is not counted).
 */
export function teamSpaceCount(): RawBuilder<number> {
  return sql<number>`(select count(*) from content_permissions cp join spaces s on s.id = cp.resource_id
    where cp.subject_kind = 'team' and cp.subject_id = teams.id and cp.resource_kind = 'space' and s.deleted_at is null)`;
}

/**
 * The teams of an organization as TeamView rows for one caller: the team, how many members it has, how many
 * spaces, and the caller's role in it.
 */
export function teamViewQuery(ctx: Context, organizationId: string, actorUserId: string) {
  return ctx.db
    .selectFrom('teams')
    .select(['teams.id', 'teams.title', 'teams.created_at'])
    .select(sql<number>`(select count(*) from team_members tm where tm.team_id = teams.id)`.as('member_count'))
    .select(teamSpaceCount().as('space_count'))
    .select(sql<string | null>`(select mine.role from team_members mine where mine.team_id = teams.id and mine.user_id = ${actorUserId})`.as('actor_team_role'))
    .where('teams.organization_id', '=', organizationId);
}

/** A team as services load it: the row, its counts, and the caller's standing in it. */
export interface TeamView {
  id: string;
  title: string;
  createdAt: string;
  members: number;
  spaces: number;
  actor: TeamActor;
}

export type TeamViewRow = {
  id: string;
  title: string;
  created_at: string;
  member_count: number | string;
  space_count: number | string;
  actor_team_role: string | null;
};

/** Turns a row of teamViewQuery into a TeamView, for a caller of the given organization standing. */
export function toTeamView(row: TeamViewRow, actor: Omit<TeamActor, 'teamRole'>): TeamView {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    members: Number(row.member_count),
    spaces: Number(row.space_count),
    actor: { ...actor, teamRole: row.actor_team_role as TeamRole | null },
  };
}

export interface TeamAccess {
  organizationId: string;
  team: TeamView;
  actor: TeamActor;
}

/**
 * Loads a team of an organization with the caller's standing in both. Outsiders of the organization get
 * its 404; a team that does not exist in this organization (or belongs to another one) is a 404 too.
 */
export async function teamAccess(ctx: Context, organizationId: string, teamId: string): Promise<TeamAccess> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  const row = await teamViewQuery(ctx, organization.id, actor.userId).where('teams.id', '=', teamId).executeTakeFirst();
  if (!row) throw teamNotFound(teamId);
  const team = toTeamView(row, actor);
  return { organizationId: organization.id, team, actor: team.actor };
}

export function teamNotFound(teamId: string): NotFound {
  return new NotFound(`No team "${teamId}" exists in this organization.`);
}

/** A page of teams from a query over `teams`, oldest first (created_at, then id), with the total count. */
export async function pageOfTeams<D, T extends keyof D, Row extends TeamViewRow>(
  ctx: Context,
  base: SelectQueryBuilder<D, T, Row>,
  scope: string,
  request: PageRequest,
): Promise<Page<Row>> {
  return pageInCreationOrder(ctx.cursors, base, scope, request, { table: 'teams' });
}
