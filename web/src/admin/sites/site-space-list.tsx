import { useState } from 'preact/hooks';
import { PlacementForm, type Placement } from './placement-form.tsx';
/** What the list orders: a site space, or a section (both have a title, a path and a default). */
export interface Orderable {
  id: string;
  title: string;
  path: string;
  default: boolean;
  condition?: string;
}

/**
 * The site spaces in their order, arranged by drag and drop or by keyboard: on a focused row, Alt+↑ and
 * Alt+↓ move it (as the page tree does). Each move is one moveSiteSpace call, before or after a neighbour;
 * the list then reloads from the server, and a live region says what moved. Until the reloaded list arrives
 * the rows are shown in the order the move gives, so a second move (a key held, a quick drag) starts from
 * where the row is seen, not from the order before the first.
 */
export function SiteSpaceList(props: {
  items: Orderable[];
  /** Tells lists apart on one screen (element ids, the help text). */
  name?: string;
  label?: string;
  onMove: (id: string, position: { before?: string; after?: string }) => Promise<void>;
  onDefault: (id: string) => Promise<void>;
  onRemove: (id: string) => Promise<void>;
  /** Changes a row's path and condition (the rows offer an Edit button when given). */
  onEdit?: (id: string, placement: Placement) => Promise<void>;
  /** Conditions to suggest (the site's template conditions). */
  suggestions?: string[];
}) {
  // The order after a move, kept while props.items is still the list it was made from.
  const [moved, setMoved] = useState<{ from: Orderable[]; order: Orderable[] } | null>(null);
  const items = moved && moved.from === props.items ? moved.order : props.items;
  const prefix = props.name ?? 'site-space';
  const [dragged, setDragged] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [editing, setEditing] = useState<string | null>(null);

  /** Shows `id` before or after `target` at once, and asks the server to move it there. */
  const reorder = (id: string, target: string, place: 'before' | 'after') => {
    const rest = items.filter((other) => other.id !== id);
    const at = rest.findIndex((other) => other.id === target) + (place === 'after' ? 1 : 0);
    setMoved({ from: props.items, order: [...rest.slice(0, at), items.find((other) => other.id === id)!, ...rest.slice(at)] });
    return props.onMove(id, { [place]: target });
  };

  const move = async (index: number, by: -1 | 1) => {
    const target = items[index + by];
    const item = items[index];
    if (!target || !item) return;
    await reorder(item.id, target.id, by < 0 ? 'before' : 'after');
    setAnnouncement(`${item.title} moved to position ${index + by + 1} of ${items.length}.`);
    // Keep the focus on the row that moved, once the list has been drawn again.
    requestAnimationFrame(() => document.getElementById(`${prefix}-${item.id}`)?.focus());
  };

  return (
    <>
      <p class="meta" id={`${prefix}-help`}>Drag {props.label ?? 'a space'} by its handle, or focus it and press Alt+↑ or Alt+↓, to change its order.</p>
      <ol class="site-space-list" aria-describedby={`${prefix}-help`}>
        {items.map((item, index) => (
          <li
            key={item.id}
            id={`${prefix}-${item.id}`}
            class={`site-space-row${dragged === item.id ? ' dragging' : ''}${editing === item.id ? ' editing' : ''}`}
            tabIndex={0}
            draggable={editing !== item.id}
            aria-label={`${item.title}${item.default ? ', default' : ''}, position ${index + 1} of ${items.length}`}
            onKeyDown={(event) => {
              if (event.target !== event.currentTarget || !event.altKey) return;
              if (event.key === 'ArrowUp') { event.preventDefault(); void move(index, -1); }
              if (event.key === 'ArrowDown') { event.preventDefault(); void move(index, 1); }
            }}
            onDragStart={(event) => { setDragged(item.id); event.dataTransfer?.setData('text/plain', item.id); }}
            onDragEnd={() => setDragged(null)}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              const id = dragged ?? event.dataTransfer?.getData('text/plain');
              setDragged(null);
              const from = items.findIndex((other) => other.id === id);
              if (!id || from < 0 || id === item.id) return;
              void reorder(id, item.id, from > index ? 'before' : 'after').then(() => setAnnouncement(`${items[from].title} moved to position ${index + 1} of ${items.length}.`));
            }}
          >
            <span class="drag-handle" aria-hidden="true">⠿</span>
            <span class="site-space-title">{item.title || 'Untitled space'}</span>
            <span class="meta">/{item.path}</span>
            {item.condition && <span class="badge condition-badge" title={item.condition}>Only when {item.condition}</span>}
            {item.default ? (
              <span class="badge">Default</span>
            ) : (
              <button type="button" class="link-button" onClick={() => void props.onDefault(item.id)}>Make default<span class="visually-hidden"> {item.title}</span></button>
            )}
            {props.onEdit && (
              <button type="button" class="link-button" aria-expanded={editing === item.id} onClick={() => setEditing(editing === item.id ? null : item.id)}>Edit<span class="visually-hidden"> {item.title}</span></button>
            )}
            <button type="button" class="link-button" onClick={() => void props.onRemove(item.id)}>Remove<span class="visually-hidden"> {item.title}</span></button>
            {props.onEdit && editing === item.id && (
              <PlacementForm
                id={`${prefix}-${item.id}-edit`}
                title={item.title}
                value={{ path: item.path, condition: item.condition ?? null }}
                suggestions={props.suggestions}
                onSave={(placement) => props.onEdit!(item.id, placement)}
                onClose={() => setEditing(null)}
              />
            )}
          </li>
        ))}
      </ol>
      <p class="visually-hidden" role="status">{announcement}</p>
    </>
  );
}
