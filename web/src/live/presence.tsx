import { useEffect, useState } from 'preact/hooks';
import type { LiveDocument, Person } from './live-document.ts';
import type { SaveStatus } from '../pages/page-saver.ts';
import { followCarets } from './follow.ts';

export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}

/**
 * Re-renders the caller when what it shows of the live document changes: `shown` names it as text, read at each
 * change. The live document tells of every edit, acknowledgement and caret move, several times a keystroke;
 * a caller re-rendered only when its text differs does nothing while someone types (decision 0120).
 */
export function useLive(live: LiveDocument | null, shown: (live: LiveDocument) => string): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!live) return;
    let last = shown(live);
    return live.subscribe(() => {
      const now = shown(live);
      if (now === last) return;
      last = now;
      setTick((n) => n + 1);
    });
  }, [live]);
}

/** What the save indicator reads of the live document (liveSaveStatus). */
export const liveSaving = (live: LiveDocument): string => `${live.saved} ${live.readOnly} ${live.state} ${live.refusal}`;

/**
 * What Presence shows: the people, the connection, who is followed, edits held unsent. `sending`, not
 * `unsynced`: the latter flips at every keystroke, the former only when edits wait over a second.
 */
const livePresence = (live: LiveDocument): string =>
  JSON.stringify([live.people(), live.state, live.refusal, live.readOnly, live.sending, live.following]);

const NOT_WRITTEN =
  'Your last edits did not reach the change request, and this page can no longer write to it. They are still on the screen: copy them before you leave this page.';

/** The saving status of a page open live: the saver's (settings) while it has work, else the body's. */
export function liveSaveStatus(status: SaveStatus, live: LiveDocument | null): SaveStatus {
  if (!live || status.state !== 'saved') return status;
  if (live.saved) return status;
  // Edits made here that the change request never got, and this page can no longer write (it turned
  // read-only, or the server stopped it): said, not shown as saving for ever.
  if (live.readOnly || live.refusal) return { state: 'stopped', message: NOT_WRITTEN };
  return { state: live.state === 'live' ? 'saving' : 'unsaved' };
}

/** Who is in the page (avatars in their caret colour) and where the live connection stands. */
export function Presence(props: { live: LiveDocument }) {
  useLive(props.live, livePresence);
  const live = props.live;
  useEffect(() => followCarets(live, document.body), [live]);
  const people: Person[] = live.people();
  const followed = people.find((person) => person.clientId === live.following);
  const status = live.refusal
    ? `Live editing stopped: ${live.refusal}`
    : live.state === 'offline'
      ? 'Offline: your edits are kept in this browser (even if you close it) and merged when the connection is back.'
      : live.state === 'connecting'
        ? 'Connecting…'
        : live.readOnly
          ? 'Live, read-only: you follow the edits of others.'
          : live.sending
            ? 'Live: sending…'
            : 'Live: everyone here sees your edits.';
  return (
    <div class="live-people">
      <ul class="live-people" aria-label="People editing">
        {people.map((person) => (
          <li key={person.clientId} class={`live-person live-colour-${person.colour}`} title={person.self ? `${person.name} (you)` : `Follow ${person.name}`} data-person={person.name}>
            {person.self ? (
              <Avatar person={person} label={`${person.name} (you)`} />
            ) : (
              // Following: the view scrolls to their caret and keeps up with it until you type or scroll.
              <button type="button" class="live-follow" aria-pressed={live.following === person.clientId} onClick={() => live.follow(live.following === person.clientId ? null : person.clientId)}>
                <Avatar person={person} label={`Follow ${person.name}`} />
              </button>
            )}
          </li>
        ))}
      </ul>
      <span class="live-status" role="status" data-live-state={live.refusal ? 'refused' : live.state}>
        {status}
      </span>
      {followed && (
        <span class="live-following" data-following={followed.name}>
          Following {followed.name}: type or scroll to stop.
        </span>
      )}
    </div>
  );
}

/** A person's photo or initials, with their name for screen readers. */
export function Avatar(props: { person: { name: string; photoURL?: string }; label: string }) {
  return props.person.photoURL ? (
    <img src={props.person.photoURL} alt={props.label} />
  ) : (
    <>
      <span aria-hidden="true">{initials(props.person.name)}</span>
      <span class="visually-hidden">{props.label}</span>
    </>
  );
}
