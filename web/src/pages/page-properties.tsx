import { useEffect, useRef } from 'preact/hooks';
import type { PageWrite } from '../api/operations.ts';
import type { DocumentPage } from '../api/types.ts';
import { PageLayoutOptions } from './page-layout.tsx';

/**
 * The page's title (as its heading) and settings: description, slug, emoji, cover and layout (page-layout.tsx);
 * each saved when it changes. The
 * fields are the browser's own (uncontrolled): what a person types is never reset by a render. `title` is the
 * title the change request's tree gives the page now: renamed by someone else (the tree follows the change
 * request live), the title field takes it, unless the person is in the field or has changed it.
 */
export function PageProperties(props: { page: DocumentPage; title?: string; spaceId: string; changeRequestId: string; onChange: (fields: PageWrite) => void }) {
  const titleField = useRef<HTMLInputElement>(null);
  // The title the field last showed from the page or the tree: a field still reading it is the person's to follow.
  const shownTitle = useRef(props.page.title);
  useEffect(() => {
    const field = titleField.current;
    if (!field || props.title === undefined || props.title === shownTitle.current) return;
    if (document.activeElement !== field && field.value === shownTitle.current) field.value = props.title;
    shownTitle.current = props.title;
  }, [props.title]);
  const commit = (field: 'description' | 'slug' | 'emoji', value: string) => props.onChange({ [field]: value.trim() === '' ? null : value.trim() });
  return (
    <header class="page-head">
      <input
        ref={titleField}
        class="page-title"
        aria-label="Page title"
        defaultValue={props.page.title}
        maxLength={300}
        onChange={(event) => {
          const value = event.currentTarget.value.trim();
          if (value && value !== shownTitle.current) {
            shownTitle.current = value;
            props.onChange({ title: value });
          }
        }}
      />
      <details class="page-properties">
        <summary>Page properties</summary>
        <div class="form">
          <label>
            Description
            <textarea name="description" rows={2} maxLength={500} onChange={(event) => commit('description', event.currentTarget.value)}>{props.page.description ?? ''}</textarea>
          </label>
          <label>
            Slug (the page's address)
            <input name="slug" defaultValue={props.page.slug ?? ''} pattern="[a-z0-9][a-z0-9-]*" onChange={(event) => commit('slug', event.currentTarget.value)} />
          </label>
          <label>
            Emoji
            <input name="emoji" defaultValue={props.page.emoji ? String.fromCodePoint(...props.page.emoji.split('-').map((part) => parseInt(part, 16))) : ''} maxLength={8} onChange={(event) => props.onChange({ emoji: emojiCode(event.currentTarget.value) })} />
          </label>
          <label>
            Icon (instead of the emoji: a name such as gear)
            <input name="icon" defaultValue={props.page.icon ?? ''} maxLength={50} pattern="[a-z0-9-]+" onChange={(event) => {
              const value = event.currentTarget.value.trim();
              if (!value || /^[a-z0-9-]+$/.test(value)) props.onChange({ icon: value || null });
            }} />
          </label>
          <PageLayoutOptions page={props.page} spaceId={props.spaceId} changeRequestId={props.changeRequestId} onChange={props.onChange} />
        </div>
      </details>
    </header>
  );
}

/** An emoji as Quire stores it: its code points in hex joined by "-" ("1f4d8"); empty removes it. */
export function emojiCode(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  return [...trimmed].map((character) => character.codePointAt(0)!.toString(16)).filter((code) => code !== 'fe0f').join('-');
}
