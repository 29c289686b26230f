import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { call } from './api.ts';
import { useMembers } from './members.tsx';
import { useTeams } from './teams.tsx';
import { ActionError, useAction } from './ui.tsx';

interface Rules {
  minApprovals: number;
  requiredReviewers: string[];
  requiredTeams: string[];
  blockOnChangesRequested: boolean;
  requireCurrentApprovals: boolean;
  adminsCanBypass: boolean;
}

/** What a change request of the space needs before it can be merged. */
export function MergeRulesPanel(props: { organizationId: string; spaceId: string; canManage: boolean }) {
  const key = `admin:merge-rules:${props.spaceId}`;
  const rules = useQuery(key, () => call<Rules>('getMergeRules', { spaceId: props.spaceId }));
  const members = useMembers(props.organizationId);
  const teams = useTeams(props.organizationId);
  const [draft, setDraft] = useState<Rules | null>(null);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  if (rules.error) return <ErrorNote error={rules.error} />;
  if (!rules.data) return <p aria-busy="true">Loading…</p>;
  const value = draft ?? rules.data;
  const update = (patch: Partial<Rules>) => {
    setSaved(false);
    setDraft({ ...value, ...patch });
  };
  const toggle = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((item) => item !== id));
  const save = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const { minApprovals, requiredReviewers, requiredTeams, blockOnChangesRequested, requireCurrentApprovals, adminsCanBypass } = value;
      await call('putMergeRules', { spaceId: props.spaceId }, { minApprovals, requiredReviewers, requiredTeams, blockOnChangesRequested, requireCurrentApprovals, adminsCanBypass });
      invalidate(key);
      invalidate(`space:${props.spaceId}`);
      setDraft(null);
      setSaved(true);
    });
  };
  const reviewers = (members.data ?? []).filter((member) => member.role !== null);
  return (
    <form class="form" onSubmit={save}>
      <label>
        Approvals needed
        <input type="number" min={0} max={20} value={value.minApprovals} disabled={!props.canManage} onInput={(event) => update({ minApprovals: Number((event.currentTarget as HTMLInputElement).value) })} />
      </label>
      <label class="choice">
        <input type="checkbox" checked={value.blockOnChangesRequested} disabled={!props.canManage} onChange={(event) => update({ blockOnChangesRequested: (event.currentTarget as HTMLInputElement).checked })} />
        A review asking for changes blocks the merge
      </label>
      <label class="choice">
        <input type="checkbox" checked={value.requireCurrentApprovals} disabled={!props.canManage} onChange={(event) => update({ requireCurrentApprovals: (event.currentTarget as HTMLInputElement).checked })} />
        Approvals count only for the latest changes
      </label>
      <label class="choice">
        <input type="checkbox" checked={value.adminsCanBypass} disabled={!props.canManage} onChange={(event) => update({ adminsCanBypass: (event.currentTarget as HTMLInputElement).checked })} />
        Administrators may merge without meeting these rules
      </label>
      <fieldset class="checks">
        <legend>People who must approve</legend>
        {reviewers.map((member) => (
          <label key={member.user.id}>
            <input type="checkbox" checked={value.requiredReviewers.includes(member.user.id)} disabled={!props.canManage} onChange={(event) => update({ requiredReviewers: toggle(value.requiredReviewers, member.user.id, (event.currentTarget as HTMLInputElement).checked) })} />
            {member.user.displayName}
          </label>
        ))}
      </fieldset>
      {(teams.data ?? []).length > 0 && (
        <fieldset class="checks">
          <legend>Teams one of whose members must approve</legend>
          {(teams.data ?? []).map((team) => (
            <label key={team.id}>
              <input type="checkbox" checked={value.requiredTeams.includes(team.id)} disabled={!props.canManage} onChange={(event) => update({ requiredTeams: toggle(value.requiredTeams, team.id, (event.currentTarget as HTMLInputElement).checked) })} />
              {team.title}
            </label>
          ))}
        </fieldset>
      )}
      {props.canManage && <div><button type="submit" class="button primary" disabled={action.busy || !draft}>Save merge rules</button></div>}
      <ActionError error={action.error} />
      {saved && <p role="status">Merge rules saved.</p>}
    </form>
  );
}
