import { useEffect, useState } from 'preact/hooks';
import type { LiveDocument, Person } from './live-document.ts';
import type { SaveStatus } from '../pages/page-saver.ts';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}

/** Re-renders the caller when the live document's people, connection or saving change. */
export function useLive(live: LiveDocument | null): void {
  const [, setTick] = useState(0);
  useEffect(() => live?.subscribe(() => setTick((n) => n + 1)), [live]);
}

/** The saving status of a page open live: the saver's (settings) while it has work, else the body's. */
export function liveSaveStatus(status: SaveStatus, live: LiveDocument | null): SaveStatus {
  if (!live || status.state !== 'saved') return status;
  if (live.saved || live.readOnly) return status;
  return { state: live.state === 'live' ? 'saving' : 'unsaved' };
}

/** Who is in the page (avatars in their caret colour) and where the live connection stands. */
export function Presence(props: { live: LiveDocument }) {
  useLive(props.live);
  const live = props.live;
  const people: Person[] = live.people();
  const status = live.refusal
    ? `Live editing stopped: ${live.refusal}`
    : live.state === 'offline'
      ? 'Offline: your edits are kept here and merged when the connection is back.'
      : live.state === 'connecting'
        ? 'Connecting…'
        : live.readOnly
          ? 'Live, read-only: you follow the edits of others.'
          : live.unsynced
            ? 'Live: sending…'
            : 'Live: everyone here sees your edits.';
  return (
    <div class="live-people">
      <ul class="live-people" aria-label="People editing">
        {people.map((person) => (
          <li key={person.clientId} class={`live-person live-colour-${person.colour}`} title={person.self ? `${person.name} (you)` : person.name} data-person={person.name}>
            {person.photoURL ? <img src={person.photoURL} alt={person.name} /> : <><span aria-hidden="true">{initials(person.name)}</span><span class="visually-hidden">{person.self ? `${person.name} (you)` : person.name}</span></>}
          </li>
        ))}
      </ul>
      <span class="live-status" role="status" data-live-state={live.refusal ? 'refused' : live.state}>
        {status}
      </span>
    </div>
  );
}
