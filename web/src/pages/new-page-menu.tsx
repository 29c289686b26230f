import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/** What the tree's "New" menu creates. */
export type NewKind = 'group' | 'link-url' | 'link-page';

const ITEMS: Array<{ kind: NewKind; label: string }> = [
  { kind: 'group', label: 'Group of pages' },
  { kind: 'link-url', label: 'Link to an address' },
  { kind: 'link-page', label: 'Link to a page' },
];

/**
 * The tree's "New…" menu (beside "New page"): a group of pages, or a link page to an address or to a page. A
 * menu button (the ARIA pattern) (the ARIA menu button pattern): Enter, Space or ↓ open it on its first item,
 * ↑/↓ move, Escape closes it and gives focus back to the button, choosing an item closes it and creates.
 */
export function NewPageMenu(props: { onChoose: (kind: NewKind) => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];

  // Focus goes to the first item as soon as the menu shows (before the next key can reach the button).
  useLayoutEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const outside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && event.target !== button.current) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'ArrowDown') list[(at + 1) % list.length]?.focus();
    else if (event.key === 'ArrowUp') list[(at - 1 + list.length) % list.length]?.focus();
    else if (event.key === 'Home') list[0]?.focus();
    else if (event.key === 'End') list[list.length - 1]?.focus();
    else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      close();
      return;
    } else return;
    event.preventDefault();
  };

  return (
    <div class="new-menu">
      <button
        type="button"
        class="button"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="new-page-menu"
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        New…
      </button>
      {open && (
        <ul role="menu" id="new-page-menu" aria-label="New" ref={menu} onKeyDown={onMenuKey}>
          {ITEMS.map((item) => (
            <li role="none" key={item.kind}>
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  close();
                  props.onChoose(item.kind);
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
