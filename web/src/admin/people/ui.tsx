import type { ComponentChildren } from 'preact';
import { ROLES, ROLE_WORDS, type Role } from './api.ts';

// One copy field for every settings screen (web/src/admin/shared/copy-field.tsx).
export { CopyField } from '../shared/copy-field.tsx';
import { CopyField } from '../shared/copy-field.tsx';

/** A secret Quire shows once (a token, a webhook's signing secret): said plainly, with a copy button. */
export function SecretOnce(props: { label: string; value: string; id: string; onDone: () => void }) {
  return (
    <div class="notice secret-once" role="status">
      <p><strong>Copy it now:</strong> Quire keeps only a hash of it and will not show it again.</p>
      <CopyField label={props.label} value={props.value} id={props.id} />
      <button type="button" class="button" onClick={props.onDone}>I have copied it</button>
    </div>
  );
}

export function RoleSelect(props: { id: string; label: string; value: Role | null; onChange: (role: Role | null) => void; guest?: boolean; disabled?: boolean; hideLabel?: boolean }) {
  return (
    <>
      <label for={props.id} class={props.hideLabel ? 'visually-hidden' : undefined}>{props.label}</label>
      <select id={props.id} value={props.value ?? 'guest'} disabled={props.disabled} onChange={(event) => {
        const value = (event.currentTarget as HTMLSelectElement).value;
        props.onChange(value === 'guest' ? null : (value as Role));
      }}>
        {ROLES.map((role) => <option key={role} value={role}>{ROLE_WORDS[role]}</option>)}
        {props.guest && <option value="guest">Guest: only the spaces and collections shared with them</option>}
      </select>
    </>
  );
}

export function roleName(role: Role | null): string {
  return role === null ? 'Guest' : role[0].toUpperCase() + role.slice(1);
}

export function Section(props: { title: string; id: string; children: ComponentChildren; lead?: ComponentChildren }) {
  return (
    <section aria-labelledby={props.id} class="settings-section">
      <h2 id={props.id}>{props.title}</h2>
      {props.lead && <p class="lead">{props.lead}</p>}
      {props.children}
    </section>
  );
}

export function when(iso: string | undefined | null): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString();
}

// One busy-and-error helper for every settings screen (web/src/admin/shared/use-action.ts).
export { useAction } from '../shared/use-action.ts';

export function ActionError({ error }: { error: string | null }) {
  return error ? <p class="error-note" role="alert">{error}</p> : null;
}
