import { Extension, type AnyExtension } from '@tiptap/core';
import Collaboration from '@tiptap/extension-collaboration';
import type { LiveDocument } from './live-document.ts';
import { caretsPlugin } from './remote-carets.ts';
import { readSelectionFromScreen } from '../editor/selection-sync.ts';
import './live.css';

/**
 * The other people's carets and selections, each in their colour with their name over the caret. Built with
 * classes and CSSOM only: the Content-Security-Policy allows no style attributes.
 */
function carets(live: LiveBinding): AnyExtension {
  return Extension.create({
    name: 'liveCarets',
    addProseMirrorPlugins() {
      return [
        // Its own caret's moves alone redraw nothing while nobody else has a caret in the page, and are
        // converted and published at the provider's pace, not in each key (remote-carets.ts).
        caretsPlugin(live.provider.awareness!, {
          cursorBuilder: (user: { name?: string; colour?: number }, clientId: number) => {
            const caret = document.createElement('span');
            caret.className = `live-caret live-colour-${user.colour ?? 0}`;
            // Whose caret it is: following a person scrolls to theirs (web/src/live/follow.ts).
            caret.dataset.client = String(clientId);
            const label = document.createElement('span');
            label.className = 'live-caret-name';
            label.textContent = user.name ?? '?';
            caret.append(label);
            return caret;
          },
          selectionBuilder: (user: { colour?: number }) => ({ class: `live-selection live-colour-${user.colour ?? 0}` }),
        }),
      ];
    },
  });
}

/**
 * A change from someone else is drawn with the selection the editor holds: read the one on screen first, or
 * a selection the browser has not reported yet is replaced by the older one (selection-sync.ts).
 */
function selectionBeforeRemote(live: LiveBinding): AnyExtension {
  return Extension.create({
    name: 'liveSelectionBeforeRemote',
    onCreate() {
      live.provider.beforeRemote = () => {
        if (!this.editor.isDestroyed) readSelectionFromScreen(this.editor.view);
      };
    },
    onDestroy() {
      live.provider.beforeRemote = undefined;
    },
  });
}

/**
 * What the binding uses of a live document: its Yjs document and its provider's awareness and hook. The typing
 * warm-up (web/src/editor/warm-typing.ts) binds an editor the same way to a document of its own, with no provider.
 */
export interface LiveBinding {
  doc: LiveDocument['doc'];
  provider: { awareness: LiveDocument['provider']['awareness']; beforeRemote: LiveDocument['provider']['beforeRemote'] };
}

/** The editor extensions of a page open live: the shared document (with its own undo) and the carets. */
export function liveExtensions(live: LiveBinding): AnyExtension[] {
  return [Collaboration.configure({ document: live.doc, field: 'default' }), carets(live), selectionBeforeRemote(live)];
}
