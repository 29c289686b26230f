import type { Mentionable } from './mentions.ts';

/** The people the `@` being typed may mean: a listbox the comment box controls (aria-activedescendant). */
export function MentionList(props: { id: string; people: Mentionable[]; active: number; onPick: (person: Mentionable) => void }) {
  return (
    <ul class="mention-list" role="listbox" id={props.id} aria-label="People to mention">
      {props.people.map((person, index) => (
        <li
          key={person.id}
          id={`${props.id}-${index}`}
          role="option"
          aria-selected={index === props.active}
          class={index === props.active ? 'is-active' : ''}
          onMouseDown={(event) => {
            event.preventDefault();
            props.onPick(person);
          }}
        >
          @{person.name}
        </li>
      ))}
    </ul>
  );
}
