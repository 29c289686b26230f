import type { Person } from './live-document.ts';
import { Avatar } from './presence.tsx';

// Apart from the presence hook (tree-presence.tsx): the read-only tree draws these too, and must not pull the
// live client (Hocuspocus, Yjs, IndexedDB) into the workspace's first load.

/** The avatars beside a page in the tree: who else has it open. */
export function TreePeople(props: { people: Person[] | undefined }) {
  if (!props.people?.length) return null;
  const names = props.people.map((person) => person.name).join(', ');
  return (
    <span class="tree-people" data-people={names}>
      <span class="visually-hidden">{` (open by ${names})`}</span>
      {props.people.slice(0, 3).map((person) => (
        <span key={person.clientId} class={`tree-person live-colour-${person.colour}`} aria-hidden="true" title={person.name}>
          <Avatar person={person} label="" />
        </span>
      ))}
      {props.people.length > 3 && <span class="tree-person tree-person-more" aria-hidden="true">+{props.people.length - 3}</span>}
    </span>
  );
}
