import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { all, call, type Operation, type Role, type Team } from './api.ts';
import { useTeams } from './teams.tsx';
import { ActionError, RoleSelect, roleName, Section, useAction } from './ui.tsx';

/** What both kinds of provider share. */
export interface Provider {
  id: string;
  label: string;
  defaultTeam?: Team;
  defaultRole: Role | null;
}

/** A value the form asks for: one member of the provider's create and update bodies. */
export interface ProviderField {
  name: string;
  label: string;
  type?: 'url' | 'password' | 'textarea';
  required?: boolean;
  /** A secret Quire never shows back: empty on edit keeps the stored one. */
  secret?: boolean;
}

/** One kind of identity provider (SAML, OpenID Connect): its operations, its fields and how a stored one reads. */
export interface ProviderKind<P extends Provider> {
  id: string;
  noun: string;
  title: string;
  lead: string;
  operations: { list: Operation; create: Operation; update: Operation; remove: Operation; param: string };
  fields: ProviderField[];
  /** The fields' values as a stored provider has them (a secret: empty). */
  values: (provider: P) => Record<string, string>;
  summary: (provider: P) => string;
  details: (provider: P, index: number) => ComponentChildren;
  /** Links beside Edit and Delete (metadata, test sign-in). */
  links: (provider: P) => ComponentChildren;
}

const LABEL: ProviderField = { name: 'label', label: 'Name shown on the sign-in page', required: true };

/**
 * The providers of one kind: each with the values to give the identity provider (`details`), an Edit form
 * (label, the provider's values, default role and team, through the kind's update operation) and Delete;
 * and the form for a new one. SAML and OpenID Connect differ only in their `ProviderKind`.
 */
export function ProviderSection<P extends Provider>(props: { organizationId: string; kind: ProviderKind<P> }) {
  const { organizationId, kind } = props;
  const key = `admin:${organizationId}:${kind.id}`;
  const providers = useQuery(key, () => all<P>(kind.operations.list, { organizationId }));
  const [editing, setEditing] = useState<string | null>(null);
  const action = useAction();
  const remove = (provider: P) => {
    if (!window.confirm(`Delete the ${kind.noun} ${provider.label}? Its people can no longer sign in through it.`)) return;
    void action.run(async () => {
      await call(kind.operations.remove, { organizationId, [kind.operations.param]: provider.id });
      invalidate(key);
    });
  };
  return (
    <Section id={kind.id} title={kind.title} lead={kind.lead}>
      {providers.error && <ErrorNote error={providers.error} />}
      {providers.data?.map((provider, index) => (
        <div key={provider.id} class="panel">
          <div class="section-head"><h3>{provider.label}</h3><span class="meta">{kind.summary(provider)} · new people get {roleName(provider.defaultRole)}{provider.defaultTeam ? ` in ${provider.defaultTeam.title}` : ''}</span></div>
          {editing === provider.id ? (
            <ProviderForm
              organizationId={organizationId}
              kind={kind}
              idPrefix={`${kind.id}-edit-${index}`}
              initial={{ values: kind.values(provider), role: provider.defaultRole, team: provider.defaultTeam?.id ?? '' }}
              submitLabel={`Save ${provider.label}`}
              onCancel={() => setEditing(null)}
              onSubmit={async (body) => {
                await call(kind.operations.update, { organizationId, [kind.operations.param]: provider.id }, body);
                invalidate(key);
                setEditing(null);
              }}
            />
          ) : (
            <>
              {kind.details(provider, index)}
              <div class="row">
                {kind.links(provider)}
                <button type="button" class="button" onClick={() => setEditing(provider.id)}>Edit<span class="visually-hidden"> {provider.label}</span></button>
                <button type="button" class="button danger" onClick={() => remove(provider)} disabled={action.busy}>Delete<span class="visually-hidden"> {provider.label}</span></button>
              </div>
            </>
          )}
        </div>
      ))}
      <h3 id={`${kind.id}-new-title`}>Add a {kind.noun}</h3>
      <ProviderForm
        organizationId={organizationId}
        kind={kind}
        idPrefix={`${kind.id}-new`}
        initial={{ values: {}, role: 'read', team: '' }}
        submitLabel={`Add ${kind.noun}`}
        ariaLabel={`New ${kind.noun}`}
        onSubmit={async (body) => {
          await call(kind.operations.create, { organizationId }, body);
          invalidate(key);
        }}
      />
      <ActionError error={action.error} />
    </Section>
  );
}

function ProviderForm<P extends Provider>(props: {
  organizationId: string;
  kind: ProviderKind<P>;
  idPrefix: string;
  initial: { values: Record<string, string>; role: Role | null; team: string };
  submitLabel: string;
  ariaLabel?: string;
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
  onCancel?: () => void;
}) {
  const { kind } = props;
  const editing = Boolean(props.onCancel);
  const [values, setValues] = useState(props.initial.values);
  const [role, setRole] = useState<Role | null>(props.initial.role);
  const [team, setTeam] = useState(props.initial.team);
  const teams = useTeams(props.organizationId);
  const action = useAction();
  const fields = [LABEL, ...kind.fields];
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const body: Record<string, unknown> = { defaultRole: role, defaultTeam: team || null };
      for (const field of fields) {
        const value = (values[field.name] ?? '').trim();
        // A secret left empty on edit keeps the stored one; required values are always sent.
        if (field.secret && editing && !value) continue;
        body[field.name] = value || (field.required ? value : null);
      }
      await props.onSubmit(body);
      if (!editing) {
        setValues({});
        setTeam('');
      }
    });
  };
  return (
    <form class="form panel" onSubmit={submit} aria-label={props.ariaLabel ?? `Edit ${props.initial.values.label ?? kind.noun}`}>
      {fields.map((field) => {
        const set = (event: Event) => setValues({ ...values, [field.name]: (event.currentTarget as HTMLInputElement).value });
        const label = field.secret && editing ? `${field.label} (empty: keep the current one)` : field.label;
        return (
          <label key={field.name}>
            {label}
            {field.type === 'textarea'
              ? <textarea rows={4} value={values[field.name] ?? ''} required={field.required} onInput={set} />
              : field.type === 'password'
                ? <input type="password" value={values[field.name] ?? ''} required={field.required} autoComplete="off" onInput={set} />
                : field.type === 'url'
                  ? <input type="url" value={values[field.name] ?? ''} required={field.required} onInput={set} />
                  : <input type="text" value={values[field.name] ?? ''} required={field.required} maxLength={field === LABEL ? 30 : undefined} onInput={set} />}
          </label>
        );
      })}
      <div><RoleSelect id={`${props.idPrefix}-role`} label="Role of people who join through it" value={role} guest onChange={setRole} /></div>
      <label for={`${props.idPrefix}-team`}>
        Default team
        <select id={`${props.idPrefix}-team`} value={team} onChange={(event) => setTeam((event.currentTarget as HTMLSelectElement).value)}>
          <option value="">None</option>
          {(teams.data ?? []).map((entry) => <option key={entry.id} value={entry.id}>{entry.title}</option>)}
        </select>
      </label>
      <ActionError error={action.error} />
      <div class="row">
        <button type="submit" class="button primary" disabled={action.busy || !(values.label ?? '').trim()}>{props.submitLabel}</button>
        {props.onCancel && <button type="button" class="button" onClick={props.onCancel}>Cancel</button>}
      </div>
    </form>
  );
}
