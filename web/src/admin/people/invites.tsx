import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { navigate, paths } from '../../app/router.ts';
import { all, call, type InviteLink, type Role } from './api.ts';
import { membersKey } from './members.tsx';
import { ActionError, CopyField, RoleSelect, roleName, Section, useAction } from './ui.tsx';

interface InviteAnswer {
  users: string[];
  invited: number;
  signInLinks?: Array<{ userId: string; email: string; url: string; expiresAt: string }>;
}

/** The address a person opens to join with an invite link (the join screen below). */
export function inviteLinkAddress(organizationId: string, inviteId: string): string {
  return `${location.origin}${paths.orgSettings(organizationId, 'join')}?invite=${encodeURIComponent(inviteId)}`;
}

/** Invite by e-mail (one address a line, with a role) and by link (anyone signed in who has it may join). */
export function InvitesSection(props: { organizationId: string }) {
  return (
    <>
      <EmailInvites organizationId={props.organizationId} />
      <LinkInvites organizationId={props.organizationId} />
    </>
  );
}

function EmailInvites(props: { organizationId: string }) {
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState<Role | null>('read');
  const [answer, setAnswer] = useState<InviteAnswer | null>(null);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const list = emails.split(/[\s,;]+/).map((email) => email.trim()).filter(Boolean);
    if (list.length === 0) return;
    void action.run(async () => {
      setAnswer(await call<InviteAnswer>('inviteByEmail', { organizationId: props.organizationId }, { emails: list, role }));
      setEmails('');
      invalidate(membersKey(props.organizationId));
    });
  };
  return (
    <Section id="invite-email" title="Invite by e-mail" lead="Each address becomes a member (or a guest) at once; a person new to Quire gets a mail with a link to set their password.">
      <form class="form" onSubmit={submit}>
        <label>
          E-mail addresses (one a line)
          <textarea rows={3} value={emails} onInput={(event) => setEmails((event.currentTarget as HTMLTextAreaElement).value)} required />
        </label>
        <div>
          <RoleSelect id="invite-role" label="Role" value={role} guest onChange={setRole} />
        </div>
        <div><button type="submit" class="button primary" disabled={action.busy}>Invite</button></div>
      </form>
      <ActionError error={action.error} />
      {answer && (
        <div class="notice" role="status">
          <p>{answer.invited} person(s) added{answer.users.length > answer.invited ? `; ${answer.users.length - answer.invited} already belonged here` : ''}.</p>
          {answer.signInLinks && answer.signInLinks.length > 0 && (
            <>
              <p>These mails could not be sent (no mail server is set up): give each person their link yourself.</p>
              {answer.signInLinks.map((link, index) => <CopyField key={link.userId} id={`sign-in-link-${index}`} label={`Link for ${link.email}`} value={link.url} />)}
            </>
          )}
        </div>
      )}
    </Section>
  );
}

function LinkInvites(props: { organizationId: string }) {
  const key = `admin:${props.organizationId}:invite-links`;
  const links = useQuery(key, () => all<InviteLink>('listInviteLinks', { organizationId: props.organizationId }));
  const [role, setRole] = useState<Role | null>('read');
  const action = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await call('createInviteLink', { organizationId: props.organizationId }, { role });
      invalidate(key);
    });
  };
  const remove = (link: InviteLink) =>
    action.run(async () => {
      await call('deleteInviteLink', { organizationId: props.organizationId, inviteId: link.id });
      invalidate(key);
    });
  return (
    <Section id="invite-links" title="Invite links" lead="Anyone signed in to Quire who opens the link joins with its role. Delete a link to stop it working.">
      <form class="row" onSubmit={create}>
        <div><RoleSelect id="link-role" label="Role the link gives" value={role} guest onChange={setRole} /></div>
        <button type="submit" class="button" disabled={action.busy}>Create a link</button>
      </form>
      <ActionError error={action.error} />
      {links.error && <ErrorNote error={links.error} />}
      {links.data && links.data.length === 0 && <p class="empty">No invite links yet: choose a role and <strong>Create a link</strong>, then send the link to the people who should join.</p>}
      {links.data?.map((link, index) => (
        <div key={link.id} class="panel">
          <CopyField id={`invite-link-${index}`} label={`Link giving the role ${roleName(link.role)}`} value={inviteLinkAddress(props.organizationId, link.id)} />
          <button type="button" class="button danger" onClick={() => remove(link)} disabled={action.busy}>Delete this link</button>
        </div>
      ))}
    </Section>
  );
}

/** `/o/{org}/settings/join?invite=…`: what an invite link opens, for someone who is not a member yet. */
export function JoinScreen(props: { organizationId: string }) {
  const invite = new URLSearchParams(location.search).get('invite') ?? '';
  const action = useAction();
  const join = () =>
    action.run(async () => {
      await call('joinWithInvite', { organizationId: props.organizationId, inviteId: invite });
      invalidate('orgs');
      navigate(paths.organization(props.organizationId));
    });
  return (
    <main id="main" class="screen narrow">
      <h1>Join an organization</h1>
      {invite ? (
        <>
          <p>You were given a link to join this organization on Quire.</p>
          <button type="button" class="button primary" onClick={join} disabled={action.busy}>Join</button>
          <ActionError error={action.error} />
        </>
      ) : (
        <p class="error-note" role="alert">This link has no invite in it: ask for the link again.</p>
      )}
    </main>
  );
}
