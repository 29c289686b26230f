import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { useSession } from '../../account/session.ts';
import { all, call, type Member, type Role } from './api.ts';
import { ActionError, RoleSelect, roleName, useAction, when } from './ui.tsx';

export function membersKey(organizationId: string): string {
  return `admin:${organizationId}:members`;
}

export function useMembers(organizationId: string) {
  return useQuery(membersKey(organizationId), () => all<Member>('listMembers', { organizationId }));
}

/** The organization's members and guests: change a role, remove someone (admins); everyone may look. */
export function MembersSection(props: { organizationId: string; admin: boolean }) {
  const members = useMembers(props.organizationId);
  const session = useSession();
  const [filter, setFilter] = useState<'all' | 'members' | 'guests'>('all');
  const action = useAction();
  if (members.error) return <ErrorNote error={members.error} />;
  if (!members.data) return <p aria-busy="true">Loading…</p>;
  const shown = members.data.filter((member) => filter === 'all' || (filter === 'guests') === (member.role === null));
  const guests = members.data.filter((member) => member.role === null).length;

  const changeRole = (member: Member, role: Role | null) =>
    action.run(async () => {
      await call('updateMember', { organizationId: props.organizationId, userId: member.user.id }, { role });
      invalidate(membersKey(props.organizationId));
    });
  const remove = (member: Member) => {
    if (!window.confirm(`Remove ${member.user.displayName} from the organization? They lose access to every space and collection here.`)) return;
    void action.run(async () => {
      await call('removeMember', { organizationId: props.organizationId, userId: member.user.id });
      invalidate(membersKey(props.organizationId));
    });
  };

  return (
    <>
      <p class="lead">
        {members.data.length - guests} member(s) and {guests} guest(s). A guest sees only the spaces and collections shared with them
        (open a space and choose <strong>Share</strong>).
      </p>
      <fieldset class="row">
        <legend class="visually-hidden">Show</legend>
        {(['all', 'members', 'guests'] as const).map((value) => (
          <label key={value} class="choice">
            <input type="radio" name="member-filter" value={value} checked={filter === value} onChange={() => setFilter(value)} />
            {value === 'all' ? 'Everyone' : value === 'members' ? 'Members' : 'Guests'}
          </label>
        ))}
      </fieldset>
      <ActionError error={action.error} />
      <div class="table-scroll" tabIndex={0} role="region" aria-label="People of the organization">
        <table class="data-table">
          <caption class="visually-hidden">People of the organization</caption>
          <thead>
            <tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col">Last seen</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {shown.map((member) => (
              <tr key={member.user.id}>
                <td>{member.user.displayName}<br /><span class="meta">{member.user.email}{member.sso ? ' · signs in with SSO' : ''}{member.disabled ? ' · disabled' : ''}</span></td>
                <td>
                  {props.admin && member.user.id !== session.user.id ? (
                    <RoleSelect id={`role-${member.user.id}`} label={`Role of ${member.user.displayName}`} hideLabel value={member.role} guest disabled={action.busy} onChange={(role) => changeRole(member, role)} />
                  ) : (
                    roleName(member.role)
                  )}
                </td>
                <td>{when(member.joinedAt)}</td>
                <td>{when(member.lastSeenAt)}</td>
                <td class="actions">
                  {props.admin && member.user.id !== session.user.id && (
                    <button type="button" class="button danger" disabled={action.busy} onClick={() => remove(member)} aria-label={`Remove ${member.user.displayName}`}>Remove</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
