import type { Awareness } from 'y-protocols/awareness';

type Changes = { added: number[]; updated: number[]; removed: number[] };
type Listener = (changes: Changes, origin: unknown) => void;

/**
 * Whether an awareness change can alter the other people's carets drawn in the page. The caret plugin
 * (y-tiptap's yCursorPlugin) answers every `change` with a second editor transaction that redraws them; the
 * person's own caret moves with each keystroke, so typing cost two transactions a key. A change of this
 * person's state alone, while nobody else's state carries a caret, draws the same (empty) set of carets.
 */
export function changesOthersCarets(awareness: Awareness, { added, updated, removed }: Changes): boolean {
  const self = awareness.clientID;
  if ([...added, ...updated, ...removed].some((clientId) => clientId !== self)) return true;
  for (const [clientId, state] of awareness.getStates()) if (clientId !== self && state.cursor != null) return true;
  return false;
}

/**
 * The awareness as the caret plugin sees it: the same object, except that its `change` listeners hear only
 * the changes that can alter the other people's carets (changesOthersCarets). Everything else (the local
 * caret it publishes, the states it reads) is the awareness itself.
 */
export function awarenessForCarets(awareness: Awareness): Awareness {
  const wrapped = new WeakMap<Listener, Listener>();
  return new Proxy(awareness, {
    get(target, property) {
      if (property === 'on' || property === 'off') {
        return (name: string, listener: Listener) => {
          if (name !== 'change') return target[property](name, listener);
          if (property === 'off') return target.off(name, wrapped.get(listener) ?? listener);
          const filtered: Listener = (changes, origin) => {
            if (changesOthersCarets(target, changes)) listener(changes, origin);
          };
          wrapped.set(listener, filtered);
          return target.on(name, filtered);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
