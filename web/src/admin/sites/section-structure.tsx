import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { PlacementForm } from './placement-form.tsx';
import { siteKey, sitesApi } from './sites-api.ts';
import type { SectionGroup, Site, SiteSection, StructurePointer } from './types.ts';

type Top = SiteSection | SectionGroup;
const pointer = (item: Top): StructurePointer => ({ type: isGroup(item) ? 'site-section-group' : 'site-section', id: item.id });
const isGroup = (item: Top): item is SectionGroup => (item as SectionGroup).object === 'site-section-group';

/**
 * A site's sections and section groups (getSiteStructure), arranged in place: groups are created from
 * chosen sections, renamed and dissolved; sections and groups are ordered by drag and drop or, on a focused
 * row, by Alt+↑ and Alt+↓ (sortSiteStructure); a section joins or leaves a group by its "Group" choice or
 * by being dropped on a group's title. A live region says what moved.
 */
export function SectionStructure(props: { organizationId: string; site: Site; suggestions: string[] }) {
  const { organizationId, site } = props;
  const key = siteKey(organizationId, site.id);
  const structure = useQuery(`${key}structure`, () => sitesApi.structure(organizationId, site.id));
  const [dragged, setDragged] = useState<StructurePointer | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);

  if (structure.error) return <ErrorNote error={structure.error} />;
  if (!structure.data) return <p aria-busy="true">Loading…</p>;
  if (structure.data.type !== 'sections') return null;
  const top = structure.data.structure as Top[];
  const groups = top.filter(isGroup);
  const flat: StructurePointer[] = top.flatMap((item) => (isGroup(item) ? [pointer(item), ...item.sections.map(pointer)] : [pointer(item)]));
  const order = (target: StructurePointer) => flat.findIndex((p) => p.type === target.type && p.id === target.id);

  const act = async (work: () => Promise<unknown>, said: string, focus?: string) => {
    setError(null);
    try {
      await work();
      setAnnouncement(said);
    } catch (caught) {
      setError((caught as Error).message);
    }
    invalidate(key);
    if (focus) requestAnimationFrame(() => document.getElementById(focus)?.focus());
  };
  const sort = (item: StructurePointer, position: { before?: StructurePointer; after?: StructurePointer }) => sitesApi.sort(organizationId, site.id, item, position);

  /** Alt+↑/↓: swap with the neighbour in its own list (a section cannot stand next to a group, so the group moves instead). */
  const step = (item: Top, siblings: Top[], by: -1 | 1) => {
    const index = siblings.findIndex((other) => other.id === item.id);
    const neighbour = siblings[index + by];
    if (!neighbour) {
      setAnnouncement(`${item.title} is already ${by < 0 ? 'first' : 'last'}.`);
      return;
    }
    const side = by < 0 ? 'before' : 'after';
    const work = !isGroup(item) && isGroup(neighbour)
      ? () => sort(pointer(neighbour), { [by < 0 ? 'after' : 'before']: pointer(item) })
      : () => sort(pointer(item), { [side]: pointer(neighbour) });
    void act(work, `${item.title} moved to position ${index + by + 1} of ${siblings.length}.`, `structure-${item.id}`);
  };

  const dropOn = (target: Top, groupHeader: boolean) => {
    const moving = dragged;
    setDragged(null);
    if (!moving || moving.id === target.id) return;
    const title = flatTitle(top, moving.id);
    if (groupHeader && moving.type === 'site-section') {
      void act(() => sitesApi.addToGroup(organizationId, site.id, target.id, moving.id), `${title} moved into the group ${target.title}.`);
      return;
    }
    const side = order(moving) > order(pointer(target)) ? 'before' : 'after';
    if (moving.type === 'site-section' && isGroup(target)) {
      void act(() => sort(pointer(target), { [side === 'before' ? 'after' : 'before']: moving }), `${title} moved ${side} ${target.title}.`);
      return;
    }
    void act(() => sort(moving, { [side]: pointer(target) }), `${title} moved ${side} ${target.title}.`);
  };

  const rowEvents = (item: Top, siblings: Top[]) => ({
    id: `structure-${item.id}`,
    tabIndex: 0,
    draggable: editing !== item.id && renaming !== item.id,
    onKeyDown: (event: KeyboardEvent) => {
      if (event.target !== event.currentTarget || !event.altKey) return;
      if (event.key === 'ArrowUp') { event.preventDefault(); step(item, siblings, -1); }
      if (event.key === 'ArrowDown') { event.preventDefault(); step(item, siblings, 1); }
    },
    onDragStart: (event: DragEvent) => { event.stopPropagation(); setDragged(pointer(item)); event.dataTransfer?.setData('text/plain', item.id); },
    onDragEnd: () => setDragged(null),
    onDragOver: (event: DragEvent) => event.preventDefault(),
  });

  const sectionRow = (section: SiteSection, siblings: Top[], group: SectionGroup | null) => (
    <li
      key={section.id}
      {...rowEvents(section, siblings)}
      class={`site-space-row${editing === section.id ? ' editing' : ''}`}
      aria-label={`Section ${section.title}${section.default ? ', default' : ''}${group ? `, in ${group.title}` : ''}, position ${siblings.indexOf(section) + 1} of ${siblings.length}`}
      onDrop={(event) => { event.preventDefault(); event.stopPropagation(); dropOn(section, false); }}
    >
      <span class="drag-handle" aria-hidden="true">⠿</span>
      <span class="site-space-title">{section.title}</span>
      <span class="meta">/{section.path}</span>
      {section.condition && <span class="badge condition-badge" title={section.condition}>Only when {section.condition}</span>}
      {groups.length > 0 && (
        <select aria-label={`Group of ${section.title}`} value={group?.id ?? ''} onChange={(event) => {
          const chosen = event.currentTarget.value;
          const chosenGroup = groups.find((g) => g.id === chosen);
          void act(
            () => (chosenGroup ? sitesApi.addToGroup(organizationId, site.id, chosenGroup.id, section.id) : sitesApi.takeOutOfGroup(organizationId, site.id, group!.id, section.id)),
            chosenGroup ? `${section.title} moved into the group ${chosenGroup.title}.` : `${section.title} taken out of ${group!.title}.`,
          );
        }}>
          <option value="">Not in a group</option>
          {groups.map((g) => <option key={g.id} value={g.id}>In {g.title}</option>)}
        </select>
      )}
      {section.default ? <span class="badge">Default</span> : (
        <button type="button" class="link-button" onClick={() => void act(() => sitesApi.update(organizationId, site.id, { defaultSiteSection: section.id }), `${section.title} is the default section.`)}>Make default<span class="visually-hidden"> {section.title}</span></button>
      )}
      <button type="button" class="link-button" aria-expanded={editing === section.id} onClick={() => setEditing(editing === section.id ? null : section.id)}>Edit<span class="visually-hidden"> {section.title}</span></button>
      <button type="button" class="link-button" onClick={() => void act(() => sitesApi.removeSection(organizationId, site.id, section.id), `${section.title} removed.`)}>Remove<span class="visually-hidden"> {section.title}</span></button>
      {editing === section.id && (
        <PlacementForm
          id={`structure-${section.id}-edit`}
          title={section.title}
          value={{ path: section.path, condition: section.condition ?? null }}
          suggestions={props.suggestions}
          onSave={async (placement) => { await sitesApi.updateSection(organizationId, site.id, section.id, placement); invalidate(key); }}
          onClose={() => setEditing(null)}
        />
      )}
    </li>
  );

  return (
    <>
      <p class="meta" id="structure-help">Drag a section or a group by its handle, or focus it and press Alt+↑ or Alt+↓, to change the order. Drop a section on a group's title, or choose its group, to move it into the group.</p>
      <ol class="site-space-list structure-list" aria-describedby="structure-help">
        {top.map((item) => isGroup(item) ? (
          <li key={item.id} {...rowEvents(item, top)} class="group-row" aria-label={`Group ${item.title}, ${item.sections.length} sections, position ${top.indexOf(item) + 1} of ${top.length}`}>
            <div class="group-head" onDragOver={(event) => event.preventDefault()} onDrop={(event) => { event.preventDefault(); event.stopPropagation(); dropOn(item, true); }}>
              <span class="drag-handle" aria-hidden="true">⠿</span>
              {renaming === item.id ? (
                <RenameForm title={item.title} onCancel={() => setRenaming(null)} onSave={(title) => act(() => sitesApi.renameGroup(organizationId, site.id, item.id, title), `Group renamed to ${title}.`).then(() => setRenaming(null))} />
              ) : (
                <>
                  <span class="site-space-title">{item.title}</span>
                  <button type="button" class="link-button" onClick={() => setRenaming(item.id)}>Rename<span class="visually-hidden"> group {item.title}</span></button>
                  <button type="button" class="link-button" onClick={() => void act(() => sitesApi.deleteGroup(organizationId, site.id, item.id), `Group ${item.title} dissolved; its sections stay.`)}>Ungroup<span class="visually-hidden"> {item.title}</span></button>
                </>
              )}
            </div>
            {item.sections.length ? (
              <ol class="site-space-list nested">{item.sections.map((section) => sectionRow(section, item.sections, item))}</ol>
            ) : (
              <p class="empty">No section yet: drop one on the title, or choose this group on a section.</p>
            )}
          </li>
        ) : sectionRow(item, top, null))}
      </ol>
      {error && <p class="error-note" role="alert">{error}</p>}
      <p class="visually-hidden" role="status">{announcement}</p>
      <NewGroupForm sections={top.filter((item): item is SiteSection => !isGroup(item))} onCreate={(title, sections) => act(() => sitesApi.createGroup(organizationId, site.id, title, sections), `Group ${title} created.`)} />
    </>
  );
}

function flatTitle(top: Top[], id: string): string {
  for (const item of top) {
    if (item.id === id) return item.title;
    if (isGroup(item)) for (const section of item.sections) if (section.id === id) return section.title;
  }
  return 'The item';
}

function RenameForm(props: { title: string; onSave: (title: string) => Promise<void>; onCancel: () => void }) {
  const [title, setTitle] = useState(props.title);
  return (
    <form class="inline-form" onSubmit={(event) => { event.preventDefault(); if (title.trim()) void props.onSave(title.trim()); }}>
      <label>Group title <input value={title} required maxLength={100} onInput={(event) => setTitle(event.currentTarget.value)} /></label>
      <button type="submit" class="button primary">Save title</button>
      <button type="button" class="button" onClick={props.onCancel}>Cancel</button>
    </form>
  );
}

function NewGroupForm(props: { sections: SiteSection[]; onCreate: (title: string, sections: string[]) => Promise<void> }) {
  const [title, setTitle] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  return (
    <form class="form new-group" aria-labelledby="new-group-title" onSubmit={(event) => {
      event.preventDefault();
      if (title.trim()) void props.onCreate(title.trim(), chosen).then(() => { setTitle(''); setChosen([]); });
    }}>
      <h4 id="new-group-title">New section group</h4>
      <label>Group title <input name="group-title" value={title} required maxLength={100} placeholder="Products" onInput={(event) => setTitle(event.currentTarget.value)} /></label>
      {props.sections.length > 0 && (
        <fieldset>
          <legend>Sections to put in it (it takes the place of the first)</legend>
          {props.sections.map((section) => (
            <label key={section.id} class="choice">
              <input type="checkbox" checked={chosen.includes(section.id)} onChange={(event) => setChosen(event.currentTarget.checked ? [...chosen, section.id] : chosen.filter((id) => id !== section.id))} />
              {section.title}
            </label>
          ))}
        </fieldset>
      )}
      <div><button type="submit" class="button" disabled={!title.trim()}>Create group</button></div>
    </form>
  );
}
