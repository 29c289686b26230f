import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { containsPattern } from '../../db/dialect.ts';
import { BadRequest, nonBlank } from '../../errors.ts';
import type { Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { removeGrantsTo } from '../../access/grants.ts';
import { pageOfTeams, teamAccess, teamViewQuery, toTeamView } from '../../access/teams.ts';
import type { TeamView } from '../../access/teams.ts';
import type { CreateTeamBody, ListTeamsQuery, UpdateTeamBody } from './schemas.ts';

/** A title as stored: trimmed, and never blank. */
function cleanTitle(title: string): string {
  return nonBlank(title, 'title', 'give the team a name of 1 to 64 characters.');
}

/** Which teams the `owner` filter keeps: every team (an admin), the teams they own, or none (a disabled member). */
async function ownerFilter(ctx: Context, organizationId: string, userId: string): Promise<'all' | 'owned' | 'none'> {
  const member = await ctx.db
    .selectFrom('members')
    .select(['role', 'disabled'])
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!member) throw new BadRequest(`The query parameter "owner" names "${userId}", who is not a member of this organization.`);
  if (member.disabled) return 'none';
  return member.role === 'admin' ? 'all' : 'owned';
}

/** The teams of an organization, oldest first; filtered by title and by who can manage them. */
export async function listTeams(ctx: Context, organizationId: string, query: ListTeamsQuery): Promise<Page<TeamView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'teams.list', actor);
  const owner = query.owner === undefined ? undefined : { userId: query.owner, mode: await ownerFilter(ctx, organization.id, query.owner) };
  const base = teamViewQuery(ctx, organization.id, actor.userId)
    .$if(query.title !== undefined && query.title !== '', (q) => q.where(sql<boolean>`lower(teams.title) like ${containsPattern(query.title!)} escape '\\'`))
    .$if(owner?.mode === 'none', (q) => q.where(sql<boolean>`1 = 0`))
    .$if(owner?.mode === 'owned', (q) =>
      q.where(sql<boolean>`exists (select 1 from team_members o where o.team_id = teams.id and o.user_id = ${owner!.userId} and o.role = 'owner')`),
    );
  const page = await pageOfTeams(ctx, base, `teams:${organization.id}:${JSON.stringify([query.owner ?? null, query.title ?? null])}`, query);
  return { ...page, items: page.items.map((row) => toTeamView(row, actor)) };
}

/** Finds which of `userIds` are not members (or guests) of the organization. */
async function notInOrganization(ctx: Context, organizationId: string, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const found = await ctx.db.selectFrom('members').select('user_id').where('organization_id', '=', organizationId).where('user_id', 'in', userIds).execute();
  const known = new Set(found.map((row) => row.user_id));
  return userIds.filter((id) => !known.has(id));
}

/** Creates a team; the users in `members` join it with the role 'member'. The creator is not added. */
export async function createTeam(ctx: Context, organizationId: string, input: CreateTeamBody): Promise<TeamView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'teams.create', actor);
    const title = cleanTitle(input.title);
    const memberIds = [...new Set(input.members ?? [])];
    const strangers = await notInOrganization(tx, organization.id, memberIds);
    if (strangers.length > 0) {
      const names = strangers.map((id) => `"${id}"`).join(', ');
      throw new BadRequest(`The body member "members" names ${names}, who ${strangers.length === 1 ? 'is not a member' : 'are not members'} of this organization.`);
    }
    const now = nowIso(tx);
    const id = tx.ids.next();
    await tx.db.insertInto('teams').values({ id, organization_id: organization.id, title, created_at: now }).execute();
    if (memberIds.length > 0) {
      await tx.db
        .insertInto('team_members')
        .values(memberIds.map((user_id) => ({ team_id: id, user_id, role: 'member', added_at: now })))
        .execute();
    }
    const row = await teamViewQuery(tx, organization.id, actor.userId).where('teams.id', '=', id).executeTakeFirstOrThrow();
    return toTeamView(row, actor);
  });
}

export async function getTeam(ctx: Context, organizationId: string, teamId: string): Promise<TeamView> {
  const { team, actor } = await teamAccess(ctx, organizationId, teamId);
  authorize(ctx, 'team.view', actor);
  return team;
}

export async function updateTeam(ctx: Context, organizationId: string, teamId: string, patch: UpdateTeamBody): Promise<TeamView> {
  return inTransaction(ctx, async (tx) => {
    const { team, actor } = await teamAccess(tx, organizationId, teamId);
    authorize(tx, 'team.manage', actor);
    const title = cleanTitle(patch.title);
    await tx.db.updateTable('teams').set({ title }).where('id', '=', team.id).execute();
    return { ...team, title };
  });
}

/**
 * Deletes a team and its memberships (nothing else: the members stay in the organization). True when a
 * team was deleted, false when there was none by that id in this organization.
 */
export async function deleteTeam(ctx: Context, organizationId: string, teamId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'teams.delete', actor);
    const team = await tx.db.selectFrom('teams').select('id').where('id', '=', teamId).where('organization_id', '=', organization.id).executeTakeFirst();
    if (!team) return false;
    await removeGrantsTo(tx, organization.id, 'team', team.id);
    await tx.db.deleteFrom('team_members').where('team_id', '=', team.id).execute();
    await tx.db.deleteFrom('teams').where('id', '=', team.id).execute();
    return true;
  });
}
