import { useState } from 'preact/hooks';
import { useAction } from '../shared/use-action.ts';

/** What a row of a site's structure can change in place: its address segment and its adaptive-content condition. */
export interface Placement {
  path: string;
  condition: string | null;
}

/**
 * Edits where a site space or a section is found (`/{path}`) and for whom (a condition over the visitor's
 * claims, e.g. `visitor.claims.partner == true`; empty shows it to everyone). The condition templates the
 * site's adaptive content schema suggests are offered as choices. A failed save stays open with its reason.
 */
export function PlacementForm(props: {
  id: string;
  title: string;
  value: Placement;
  suggestions?: string[];
  onSave: (value: Placement) => Promise<void>;
  onClose: () => void;
}) {
  const [path, setPath] = useState(props.value.path);
  const [condition, setCondition] = useState(props.value.condition ?? '');
  const { busy, error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await props.onSave({ path: path.trim(), condition: condition.trim() || null });
      props.onClose();
    });
  };
  const listId = `${props.id}-conditions`;
  return (
    <form class="placement-form" onSubmit={submit} aria-label={`Address and condition of ${props.title}`}>
      <label>
        Path
        <span class="path-input"><span aria-hidden="true">/</span><input name="path" value={path} required maxLength={100} pattern="[^\/]+" onInput={(event) => setPath(event.currentTarget.value)} /></span>
      </label>
      <label>
        Shown when (empty: to everyone)
        <input name="condition" value={condition} maxLength={1024} list={props.suggestions?.length ? listId : undefined} placeholder="visitor.claims.partner == true" onInput={(event) => setCondition(event.currentTarget.value)} />
      </label>
      {props.suggestions?.length ? (
        <datalist id={listId}>
          {props.suggestions.map((suggestion) => <option key={suggestion} value={suggestion} />)}
        </datalist>
      ) : null}
      {error && <p class="error-note" role="alert">{error}</p>}
      <div class="row">
        <button type="submit" class="button primary" disabled={busy}>Save<span class="visually-hidden"> {props.title}</span></button>
        <button type="button" class="button" onClick={props.onClose}>Cancel</button>
      </div>
    </form>
  );
}
