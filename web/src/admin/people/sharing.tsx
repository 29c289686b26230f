import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { all, call, type Operation, type Role, type TeamPermission, type UserPermission } from './api.ts';
import { useMembers } from './members.tsx';
import { useTeams } from './teams.tsx';
import { ActionError, RoleSelect, roleName, Section, useAction } from './ui.tsx';

export type ContentKind = 'space' | 'collection';
type Level = Role | 'inherit' | null;

interface Content {
  id: string;
  title: string;
  parent?: string;
  defaultLevel: Level;
}

const OPS: Record<ContentKind, { get: Operation; update: Operation; invite: Operation; users: Operation; teams: Operation; setUser: Operation; removeUser: Operation; setTeam: Operation; removeTeam: Operation; param: string }> = {
  space: { get: 'getSpace', update: 'updateSpaceSettings', invite: 'inviteToSpace', users: 'listSpaceUserPermissions', teams: 'listSpaceTeamPermissions', setUser: 'updateSpaceUserPermission', removeUser: 'removeSpaceUser', setTeam: 'updateSpaceTeamPermission', removeTeam: 'removeSpaceTeam', param: 'spaceId' },
  collection: { get: 'getCollection', update: 'updateCollectionSettings', invite: 'inviteToCollection', users: 'listCollectionUserPermissions', teams: 'listCollectionTeamPermissions', setUser: 'updateCollectionUserPermission', removeUser: 'removeCollectionUser', setTeam: 'updateCollectionTeamPermission', removeTeam: 'removeCollectionTeam', param: 'collectionId' },
};

function sharingKey(kind: ContentKind, id: string): string {
  return `admin:sharing:${kind}:${id}`;
}

interface Shared {
  content: Content;
  users: UserPermission[];
  teams: TeamPermission[];
}

async function loadShared(kind: ContentKind, id: string): Promise<Shared> {
  const ops = OPS[kind];
  const params = { [ops.param]: id };
  const [content, users, teams] = await Promise.all([
    call<Content>(ops.get, params),
    all<UserPermission>(ops.users, params),
    all<TeamPermission>(ops.teams, params),
  ]);
  return { content, users, teams };
}

/** The collections above a piece of content, nearest first, each with what is shared on it. */
async function loadAncestors(parent: string | undefined): Promise<Shared[]> {
  const chain: Shared[] = [];
  let next = parent;
  while (next && chain.length < 64) {
    const shared = await loadShared('collection', next);
    chain.push(shared);
    next = shared.content.parent;
  }
  return chain;
}

function levelWords(level: Level): string {
  if (level === 'inherit') return 'as the collection above says';
  if (level === null) return 'no access (administrators only, and the people and teams it is shared with)';
  return `at most ${roleName(level)} (a member with a lower organization role keeps theirs)`;
}

/**
 * The sharing dialog of a space or a collection: the people and teams it is shared with and their roles, what
 * members of the organization get by default, and the access that comes from the collections above it (with
 * the collection's name: change it there).
 */
export function SharingPanel(props: { organizationId: string; kind: ContentKind; id: string; canManage: boolean }) {
  const key = sharingKey(props.kind, props.id);
  const shared = useQuery(key, () => loadShared(props.kind, props.id));
  const ancestors = useQuery(shared.data ? `${key}:ancestors:${shared.data.content.parent ?? ''}` : null, () => loadAncestors(shared.data?.content.parent));
  const members = useMembers(props.organizationId);
  const teams = useTeams(props.organizationId);
  const [who, setWho] = useState('');
  const [role, setRole] = useState<Role | null>('read');
  const action = useAction();
  const ops = OPS[props.kind];
  const params = { [ops.param]: props.id };
  const changed = () => invalidate(key);

  if (shared.error) return <ErrorNote error={shared.error} />;
  if (!shared.data) return <p aria-busy="true">Loading…</p>;
  const { content, users, teams: teamGrants } = shared.data;
  const sharedUsers = new Set(users.map((grant) => grant.user.id));
  const sharedTeams = new Set(teamGrants.map((grant) => grant.team.id));

  const share = (event: Event) => {
    event.preventDefault();
    if (!who || role === null) return;
    const [kind, id] = who.split(':');
    void action.run(async () => {
      await call(ops.invite, params, kind === 'team' ? { role, teams: [id] } : { role, users: [id] });
      setWho('');
      changed();
      invalidate(`admin:${props.organizationId}:teams`);
    });
  };
  const setUser = (userId: string, next: Role | null) =>
    action.run(async () => {
      await (next === null ? call(ops.removeUser, { ...params, userId }) : call(ops.setUser, { ...params, userId }, { role: next }));
      changed();
    });
  const setTeam = (teamId: string, next: Role | null) =>
    action.run(async () => {
      await (next === null ? call(ops.removeTeam, { ...params, teamId }) : call(ops.setTeam, { ...params, teamId }, { role: next }));
      changed();
    });
  const setDefault = (level: Level) =>
    action.run(async () => {
      await call(ops.update, params, { defaultLevel: level });
      changed();
    });

  const inherited = (ancestors.data ?? []).flatMap((ancestor) => [
    ...ancestor.users.map((grant) => ({ key: `u${ancestor.content.id}${grant.user.id}`, name: grant.user.displayName, detail: grant.user.email, role: grant.permission, from: ancestor.content.title })),
    ...ancestor.teams.map((grant) => ({ key: `t${ancestor.content.id}${grant.team.id}`, name: `Team ${grant.team.title}`, detail: `${grant.team.members} member(s)`, role: grant.permission, from: ancestor.content.title })),
  ]);
  const nearestSet = [content.defaultLevel, ...(ancestors.data ?? []).map((ancestor) => ancestor.content.defaultLevel)].find((level) => level !== 'inherit');

  return (
    <>
      {props.canManage && (
        <form class="row" onSubmit={share} aria-label={`Share this ${props.kind}`}>
          <label>
            Person or team
            <select value={who} onChange={(event) => setWho((event.currentTarget as HTMLSelectElement).value)}>
              <option value="">Choose…</option>
              <optgroup label="Teams">
                {(teams.data ?? []).filter((team) => !sharedTeams.has(team.id)).map((team) => <option key={team.id} value={`team:${team.id}`}>{team.title}</option>)}
              </optgroup>
              <optgroup label="People">
                {(members.data ?? []).filter((member) => !sharedUsers.has(member.user.id)).map((member) => (
                  <option key={member.user.id} value={`user:${member.user.id}`}>{member.user.displayName}{member.role === null ? ' (guest)' : ''}{member.user.email ? ` · ${member.user.email}` : ''}</option>
                ))}
              </optgroup>
            </select>
          </label>
          <div><RoleSelect id={`share-role-${props.id}`} label="Role" value={role} onChange={setRole} /></div>
          <button type="submit" class="button primary" disabled={action.busy || !who}>Share</button>
        </form>
      )}
      <ActionError error={action.error} />
      <Section id={`shared-with-${props.id}`} title="Shared with">
        {users.length === 0 && teamGrants.length === 0 && <p class="empty">Not shared with anyone in particular{props.canManage ? <>: choose a person or a team and a role, then <strong>Share</strong>.</> : '.'}</p>}
        <ul class="nav-list">
          {teamGrants.map((grant) => (
            <li key={grant.team.id} class="row">
              <span>Team {grant.team.title} <span class="meta">{grant.team.members} member(s)</span></span>
              {props.canManage ? <AccessSelect id={`team-access-${grant.team.id}`} label={`Role of team ${grant.team.title}`} value={grant.permission} onChange={(next) => setTeam(grant.team.id, next)} /> : <span>{roleName(grant.permission)}</span>}
            </li>
          ))}
          {users.map((grant) => (
            <li key={grant.user.id} class="row">
              <span>{grant.user.displayName} <span class="meta">{grant.user.email}</span></span>
              {props.canManage ? <AccessSelect id={`user-access-${grant.user.id}`} label={`Role of ${grant.user.displayName}`} value={grant.permission} onChange={(next) => setUser(grant.user.id, next)} /> : <span>{roleName(grant.permission)}</span>}
            </li>
          ))}
        </ul>
      </Section>
      <Section id={`general-${props.id}`} title="Members of the organization">
        <p>Administrators always have full access. Other members get {nearestSet === undefined ? 'their own organization role' : levelWords(nearestSet)}.</p>
        {props.canManage && (
          <label>
            Default access on this {props.kind}
            <select value={content.defaultLevel ?? 'none'} disabled={action.busy} onChange={(event) => {
              const value = (event.currentTarget as HTMLSelectElement).value;
              void setDefault(value === 'none' ? null : (value as Level));
            }}>
              <option value="inherit">Inherit (from the collection above, else each member's organization role)</option>
              <option value="read">Read</option>
              <option value="comment">Comment</option>
              <option value="edit">Edit</option>
              <option value="review">Review</option>
              <option value="create">Create</option>
              <option value="admin">Admin</option>
              <option value="none">No access by default</option>
            </select>
          </label>
        )}
      </Section>
      <Section id={`inherited-${props.id}`} title="Inherited access">
        {ancestors.error && <ErrorNote error={ancestors.error} />}
        {!content.parent && <p class="empty">This {props.kind} is in no collection, so it inherits nothing but the organization's roles.</p>}
        {content.parent && ancestors.data && inherited.length === 0 && <p class="empty">The collections above share nothing with particular people or teams.</p>}
        <ul class="nav-list">
          {inherited.map((entry) => (
            <li key={entry.key} class="row">
              <span>{entry.name} <span class="meta">{entry.detail}</span></span>
              <span>{roleName(entry.role)} <span class="access-source">from the collection {entry.from}</span></span>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}

/** A shared person's or team's role, with "Remove" as the last choice. */
function AccessSelect(props: { id: string; label: string; value: Role; onChange: (role: Role | null) => void }) {
  return (
    <span>
      <label for={props.id} class="visually-hidden">{props.label}</label>
      <select id={props.id} value={props.value} onChange={(event) => {
        const value = (event.currentTarget as HTMLSelectElement).value;
        props.onChange(value === 'remove' ? null : (value as Role));
      }}>
        {(['read', 'comment', 'edit', 'review', 'create', 'admin'] as const).map((role) => <option key={role} value={role}>{roleName(role)}</option>)}
        <option value="remove">Remove access</option>
      </select>
    </span>
  );
}
