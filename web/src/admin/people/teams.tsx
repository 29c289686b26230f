import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { all, call, type Member, type Team } from './api.ts';
import { useMembers } from './members.tsx';
import { ActionError, Section, useAction } from './ui.tsx';

export function teamsKey(organizationId: string): string {
  return `admin:${organizationId}:teams`;
}

export function useTeams(organizationId: string) {
  return useQuery(teamsKey(organizationId), () => all<Team>('listTeams', { organizationId }));
}

/** Teams: create, delete, and each team's members (add, remove). A space shared with a team reaches them all. */
export function TeamsSection(props: { organizationId: string; admin: boolean }) {
  const teams = useTeams(props.organizationId);
  const [title, setTitle] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const action = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const team = await call<Team>('createTeam', { organizationId: props.organizationId }, { title: title.trim() });
      setTitle('');
      setOpen(team.id);
      invalidate(teamsKey(props.organizationId));
    });
  };
  const remove = (team: Team) => {
    if (!window.confirm(`Delete the team ${team.title}? Its members keep their own access but lose what was shared with the team.`)) return;
    void action.run(async () => {
      await call('deleteTeam', { organizationId: props.organizationId, teamId: team.id });
      invalidate(teamsKey(props.organizationId));
    });
  };
  return (
    <>
      <p class="lead">Share a space or a collection with a team and every member of the team gets that access.</p>
      {props.admin && (
        <form class="row" onSubmit={create}>
          <label>
            New team's name
            <input value={title} maxLength={64} required onInput={(event) => setTitle((event.currentTarget as HTMLInputElement).value)} />
          </label>
          <button type="submit" class="button primary" disabled={action.busy || !title.trim()}>Create team</button>
        </form>
      )}
      <ActionError error={action.error} />
      {teams.error && <ErrorNote error={teams.error} />}
      {teams.data && teams.data.length === 0 && <p class="empty">No teams yet. {props.admin ? <>Name one and choose <strong>Create team</strong>, then add its members.</> : <>An administrator of the organization creates them.</>}</p>}
      {teams.data?.map((team) => (
        <div key={team.id} class="panel">
          <div class="section-head">
            <h2 id={`team-${team.id}`}>{team.title}</h2>
            <span class="meta">{team.members} member(s) · {team.spaces} space(s)</span>
          </div>
          <div class="row">
            <button type="button" class="button" aria-expanded={open === team.id} onClick={() => setOpen(open === team.id ? null : team.id)}>
              {open === team.id ? 'Hide members' : 'Members'}
            </button>
            {props.admin && <button type="button" class="button danger" onClick={() => remove(team)} disabled={action.busy}>Delete team</button>}
          </div>
          {open === team.id && <TeamMembers organizationId={props.organizationId} team={team} admin={props.admin || team.permissions.admin} />}
        </div>
      ))}
    </>
  );
}

function TeamMembers(props: { organizationId: string; team: Team; admin: boolean }) {
  const key = `${teamsKey(props.organizationId)}:${props.team.id}:members`;
  const members = useQuery(key, () => all<{ organization: Member; permissions?: unknown }>('listTeamMembers', { organizationId: props.organizationId, teamId: props.team.id }));
  const everyone = useMembers(props.organizationId);
  const [adding, setAdding] = useState('');
  const action = useAction();
  const changed = () => {
    invalidate(key);
    invalidate(teamsKey(props.organizationId));
  };
  const add = (event: Event) => {
    event.preventDefault();
    if (!adding) return;
    void action.run(async () => {
      await call('addTeamMember', { organizationId: props.organizationId, teamId: props.team.id, userId: adding }, {});
      setAdding('');
      changed();
    });
  };
  const remove = (member: Member) =>
    action.run(async () => {
      await call('removeTeamMember', { organizationId: props.organizationId, teamId: props.team.id, userId: member.user.id });
      changed();
    });
  if (members.error) return <ErrorNote error={members.error} />;
  if (!members.data) return <p aria-busy="true">Loading…</p>;
  const inTeam = new Set(members.data.map((entry) => entry.organization.user.id));
  const candidates = (everyone.data ?? []).filter((member) => !inTeam.has(member.user.id));
  return (
    <Section id={`team-members-${props.team.id}`} title={`Members of ${props.team.title}`}>
      {members.data.length === 0 ? <p class="empty">Nobody is in this team yet.</p> : (
        <ul class="nav-list">
          {members.data.map(({ organization: member }) => (
            <li key={member.user.id} class="row">
              <span>{member.user.displayName} <span class="meta">{member.user.email}</span></span>
              {props.admin && <button type="button" class="button" onClick={() => remove(member)} disabled={action.busy} aria-label={`Remove ${member.user.displayName} from ${props.team.title}`}>Remove</button>}
            </li>
          ))}
        </ul>
      )}
      {props.admin && (
        <form class="row" onSubmit={add}>
          <label>
            Add a member
            <select value={adding} onChange={(event) => setAdding((event.currentTarget as HTMLSelectElement).value)}>
              <option value="">Choose a person…</option>
              {candidates.map((member) => <option key={member.user.id} value={member.user.id}>{member.user.displayName}{member.user.email ? ` (${member.user.email})` : ''}</option>)}
            </select>
          </label>
          <button type="submit" class="button" disabled={action.busy || !adding}>Add</button>
        </form>
      )}
      <ActionError error={action.error} />
    </Section>
  );
}
