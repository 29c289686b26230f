import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { BadRequest } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import type { TeamRole } from '../../policy/roles.ts';
import { teamAccess } from '../../access/teams.ts';
import type { UpdateTeamMembersBody } from './schemas.ts';

type Field = 'add' | 'remove' | 'memberships';

/**
 * Resolves user references (an id, or an e-mail address in any case) to the ids of members and guests of
 * the organization. References that name nobody in the organization are left out of the map.
 */
async function resolveUsers(ctx: Context, organizationId: string, references: string[]): Promise<Map<string, string>> {
  const resolved = new Map<string, string>();
  if (references.length === 0) return resolved;
  const emails = [...new Set(references.filter((r) => r.includes('@')).map((r) => r.trim().toLowerCase()))];
  const ids = [...new Set(references)];
  const rows = await ctx.db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['users.id', sql<string>`lower(users.email)`.as('email')])
    .where('members.organization_id', '=', organizationId)
    .where((eb) => (emails.length > 0 ? eb.or([eb('users.id', 'in', ids), eb(sql<string>`lower(users.email)`, 'in', emails)]) : eb('users.id', 'in', ids)))
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row.id]));
  const byEmail = new Map(rows.map((row) => [row.email, row.id]));
  for (const reference of references) {
    const id = byId.get(reference) ?? byEmail.get(reference.trim().toLowerCase());
    if (id) resolved.set(reference, id);
  }
  return resolved;
}

/**
 * Adds, removes and changes the role of several team members at once, all or nothing. A user named in both
 * `add` and `remove` is removed; `memberships` sets the role of users being added or already in the team
 * (a user added without one joins as 'member'; one already in the team keeps their role).
 */
export async function updateTeamMembers(ctx: Context, organizationId: string, teamId: string, body: UpdateTeamMembersBody): Promise<void> {
  if (body.add === undefined && body.remove === undefined && body.memberships === undefined) {
    throw new BadRequest('The body must contain at least one of "add", "remove" or "memberships".');
  }
  await inTransaction(ctx, async (tx) => {
    const { organizationId: orgId, team, actor } = await teamAccess(tx, organizationId, teamId);
    authorize(tx, 'team.manage', actor);
    const named: Array<[Field, string]> = [
      ...(body.add ?? []).map((r): [Field, string] => ['add', r]),
      ...(body.remove ?? []).map((r): [Field, string] => ['remove', r]),
      ...Object.keys(body.memberships ?? {}).map((r): [Field, string] => ['memberships', r]),
    ];
    const resolved = await resolveUsers(tx, orgId, named.map(([, r]) => r));
    const unknown = named.filter(([, r]) => !resolved.has(r));
    if (unknown.length > 0) {
      const list = unknown.map(([field, r]) => `"${r}" (in "${field}")`).join(', ');
      throw new BadRequest(`Only members and guests of this organization can be in its teams; these are not: ${list}.`);
    }

    const removed = new Set((body.remove ?? []).map((r) => resolved.get(r)!));
    const added = new Set((body.add ?? []).map((r) => resolved.get(r)!).filter((id) => !removed.has(id)));
    const roles = new Map<string, { role: TeamRole; reference: string }>();
    for (const [reference, { role }] of Object.entries(body.memberships ?? {})) {
      const id = resolved.get(reference)!;
      const earlier = roles.get(id);
      if (earlier && earlier.role !== role) {
        throw new BadRequest(`The body member "memberships" gives one user two roles, as "${earlier.reference}" and as "${reference}": keep one.`);
      }
      // A user who ends up removed needs no role.
      if (!removed.has(id)) roles.set(id, { role, reference });
    }

    const current = new Set(
      (await tx.db.selectFrom('team_members').select('user_id').where('team_id', '=', team.id).execute()).map((row) => row.user_id),
    );
    for (const [id, { reference }] of roles) {
      if (!added.has(id) && !current.has(id)) {
        throw new BadRequest(`The body member "memberships" sets a role for "${reference}", who is not in the team: name them in "add" too.`);
      }
    }

    if (removed.size > 0) await tx.db.deleteFrom('team_members').where('team_id', '=', team.id).where('user_id', 'in', [...removed]).execute();
    const now = nowIso(tx);
    const withRole = [...roles].map(([user_id, { role }]) => ({ team_id: team.id, user_id, role, added_at: now }));
    if (withRole.length > 0) {
      await tx.db
        .insertInto('team_members')
        .values(withRole)
        .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet((eb) => ({ role: eb.ref('excluded.role') })))
        .execute();
    }
    const withoutRole = [...added].filter((id) => !roles.has(id)).map((user_id) => ({ team_id: team.id, user_id, role: 'member', added_at: now }));
    if (withoutRole.length > 0) {
      await tx.db
        .insertInto('team_members')
        .values(withoutRole)
        .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
        .execute();
    }
  });
}
