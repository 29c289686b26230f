import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { DecorationSet, type DecorationAttrs } from '@tiptap/pm/view';
import { absolutePositionToRelativePosition, createDecorations, defaultAwarenessStateFilter, isStructuralTransaction, relativePositionToAbsolutePosition, ySyncPluginKey } from '@tiptap/y-tiptap';
import type { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { AWARENESS_PACE_MS } from './paced-provider.ts';

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

/** How long after this person's caret or text moves their caret is converted and published (AWARENESS_PACE_MS). */
export const CARET_PUBLISH_MS = AWARENESS_PACE_MS;

interface Builders {
  cursorBuilder: (user: { name?: string; colour?: number }, clientId: number) => HTMLElement;
  selectionBuilder: (user: { colour?: number }, clientId: number) => DecorationAttrs;
}

const caretsKey = new PluginKey<DecorationSet>('liveCarets');

/**
 * The other people's carets drawn in the page, and this person's caret published to them (Quire's own plugin in
 * place of y-tiptap's `yCursorPlugin`, with its exported `createDecorations` drawing them the same way).
 *
 * What differs is when this person's caret is converted: y-tiptap converted the selection to Yjs relative
 * positions (two walks of the shared document from its first block) in every editor update, inside the key's
 * own task. Here a local edit or caret move schedules one conversion CARET_PUBLISH_MS later, for every move made
 * meanwhile: the provider sends carets at that pace anyway (paced-provider.ts), and the converted position is of
 * the document as it is then, which is what the others' documents hold. A change of focus publishes at once
 * (placing or clearing the caret), and an edit from elsewhere republishes as y-tiptap did.
 *
 * The others' carets are recomputed from their relative positions after an edit from elsewhere and after an
 * awareness change that can alter them (changesOthersCarets; the redraw is a transaction of its own, queued
 * after the current task so that it never runs inside another dispatch); after a local edit they are mapped
 * through it, and hidden after a local structural change (a block moved) until their owners publish again.
 */
export function caretsPlugin(awareness: Awareness, builders: Builders): Plugin<DecorationSet> {
  const draw = (state: EditorState) => createDecorations(state, awareness, defaultAwarenessStateFilter, builders.cursorBuilder as never, builders.selectionBuilder as never);
  return new Plugin<DecorationSet>({
    key: caretsKey,
    state: {
      init: (_config, state) => draw(state),
      apply: (tr, drawn, oldState, state) => {
        const remote = ySyncPluginKey.getState(state)?.isChangeOrigin === true;
        if (remote || tr.getMeta(caretsKey) === 'redraw') return draw(state);
        if (!tr.docChanged) return drawn;
        // The ProseMirror document leads the shared one during a local move: stale carets are hidden.
        if (isStructuralTransaction(tr, oldState.doc)) return DecorationSet.empty;
        return drawn.map(tr.mapping, tr.doc);
      },
    },
    props: { decorations: (state) => caretsKey.getState(state) },
    view: (view) => {
      let publishTimer: ReturnType<typeof setTimeout> | null = null;
      let forced = false;
      let redrawTimer: ReturnType<typeof setTimeout> | null = null;
      const publish = () => {
        if (publishTimer) clearTimeout(publishTimer);
        publishTimer = null;
        const force = forced;
        forced = false;
        if (view.isDestroyed) return;
        const sync = ySyncPluginKey.getState(view.state);
        if (!sync?.binding) return;
        const current = (awareness.getLocalState() ?? {}) as { cursor?: { anchor: unknown; head: unknown } | null };
        if (view.hasFocus()) {
          const { anchor, head } = view.state.selection;
          const relativeAnchor = absolutePositionToRelativePosition(anchor, sync.type, sync.binding.mapping);
          const relativeHead = absolutePositionToRelativePosition(head, sync.type, sync.binding.mapping);
          const same =
            current.cursor != null &&
            Y.compareRelativePositions(Y.createRelativePositionFromJSON(current.cursor.anchor), relativeAnchor) &&
            Y.compareRelativePositions(Y.createRelativePositionFromJSON(current.cursor.head), relativeHead);
          if (force || !same) awareness.setLocalStateField('cursor', { anchor: relativeAnchor, head: relativeHead });
        } else if (current.cursor != null && relativePositionToAbsolutePosition(sync.doc, sync.type, Y.createRelativePositionFromJSON(current.cursor.anchor), sync.binding.mapping) !== null) {
          // This editor's caret leaves with its focus.
          awareness.setLocalStateField('cursor', null);
        }
      };
      const publishSoon = (force: boolean) => {
        forced ||= force;
        publishTimer ??= setTimeout(publish, CARET_PUBLISH_MS);
      };
      const redraw = () => {
        redrawTimer ??= setTimeout(() => {
          redrawTimer = null;
          if (!view.isDestroyed) view.dispatch(view.state.tr.setMeta(caretsKey, 'redraw'));
        });
      };
      // Only the changes that can alter the carets drawn here (awarenessForCarets).
      const carets = awarenessForCarets(awareness);
      carets.on('change', redraw);
      view.dom.addEventListener('focusin', publish);
      view.dom.addEventListener('focusout', publish);
      return {
        update: (view, previous) => {
          const remote = ySyncPluginKey.getState(view.state)?.isChangeOrigin === true;
          if (remote) {
            // An edit from elsewhere: publish again (as y-tiptap did) when it changed the document.
            if (!previous.doc.eq(view.state.doc)) publishSoon(true);
          } else if (previous.doc !== view.state.doc || !previous.selection.eq(view.state.selection)) publishSoon(false);
        },
        destroy: () => {
          if (publishTimer) clearTimeout(publishTimer);
          if (redrawTimer) clearTimeout(redrawTimer);
          view.dom.removeEventListener('focusin', publish);
          view.dom.removeEventListener('focusout', publish);
          carets.off('change', redraw);
          awareness.setLocalStateField('cursor', null);
        },
      };
    },
  });
}
