import { Extension, type Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { closeHistory } from '@tiptap/pm/history';
import type { FindCount, FindTarget } from './find-target.ts';

interface Match {
  from: number;
  to: number;
}

interface FindState {
  query: string;
  caseSensitive: boolean;
  matches: Match[];
  current: number;
  decorations: DecorationSet;
}

type FindMeta = { query: string; caseSensitive: boolean } | { current: number };

const key = new PluginKey<FindState>('find-in-page');
const EMPTY: FindState = { query: '', caseSensitive: false, matches: [], current: -1, decorations: DecorationSet.empty };

/** The matches of `query` in one textblock starting at `start` (its content's first position). */
function blockMatches(block: ProseMirrorNode, start: number, query: string, caseSensitive: boolean): Match[] {
  // One character per position: text as it is, any inline leaf (an emoji, a break) as one character no query holds.
  let text = '';
  block.forEach((child) => {
    text += child.isText ? child.text! : '\ufffc'.repeat(child.nodeSize);
  });
  const haystack = caseSensitive ? text : text.toLowerCase();
  const needle = caseSensitive ? query : query.toLowerCase();
  const found: Match[] = [];
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length)) {
    found.push({ from: start + index, to: start + index + needle.length });
  }
  return found;
}

/** The matches in every textblock that overlaps from…to, in order. */
function searchRange(doc: ProseMirrorNode, from: number, to: number, query: string, caseSensitive: boolean): Array<{ block: Match; matches: Match[] }> {
  const out: Array<{ block: Match; matches: Match[] }> = [];
  doc.nodesBetween(from, to, (node, position) => {
    if (!node.isTextblock) return true;
    out.push({ block: { from: position, to: position + node.nodeSize }, matches: blockMatches(node, position + 1, query, caseSensitive) });
    return false;
  });
  return out;
}

function decoration(match: Match, current: boolean): Decoration {
  return Decoration.inline(match.from, match.to, { class: current ? 'find-match find-current' : 'find-match' }, { current });
}

function decorate(doc: ProseMirrorNode, matches: Match[], current: number): DecorationSet {
  return DecorationSet.create(doc, matches.map((match, index) => decoration(match, index === current)));
}

function withCurrent(state: FindState, doc: ProseMirrorNode, current: number): FindState {
  let decorations = state.decorations;
  const before = state.matches[state.current];
  if (before) decorations = decorations.remove(decorations.find(before.from, before.to, (spec) => spec.current === true)).add(doc, [decoration(before, false)]);
  const after = state.matches[current];
  if (after) decorations = decorations.remove(decorations.find(after.from, after.to, (spec) => spec.current === false)).add(doc, [decoration(after, true)]);
  return { ...state, current, decorations };
}

/**
 * After an edit: the matches and their decorations are mapped through it, and only the textblocks it touched
 * are searched again (typing in a 1,000-block page searches one paragraph, and redraws only it).
 */
function afterEdit(state: FindState, tr: Transaction): FindState {
  const doc = tr.doc;
  const touched: Match[] = [];
  tr.mapping.maps.forEach((map, index) => {
    const rest = tr.mapping.slice(index + 1);
    map.forEach((_oldStart, _oldEnd, newStart, newEnd) => touched.push({ from: rest.map(newStart, -1), to: rest.map(newEnd, 1) }));
  });
  const rebuilt = touched.flatMap((range) => searchRange(doc, Math.max(0, range.from - 1), Math.min(doc.content.size, range.to + 1), state.query, state.caseSensitive));
  const inRebuilt = (match: Match) => rebuilt.some(({ block }) => match.from >= block.from && match.to <= block.to);
  const currentAt = state.matches[state.current] ? tr.mapping.map(state.matches[state.current].from, 1) : 0;
  const kept = state.matches.map((match) => ({ from: tr.mapping.map(match.from, 1), to: tr.mapping.map(match.to, -1) })).filter((match) => match.to > match.from && !inRebuilt(match));
  const seen = new Set<string>();
  const fresh = rebuilt.flatMap(({ matches }) => matches).filter((match) => !seen.has(`${match.from}`) && seen.add(`${match.from}`));
  const matches = [...kept, ...fresh].sort((a, b) => a.from - b.from);
  let decorations = state.decorations.map(tr.mapping, doc);
  for (const { block } of rebuilt) decorations = decorations.remove(decorations.find(block.from, block.to));
  decorations = decorations.remove(decorations.find(undefined, undefined, (spec) => spec.current === true));
  // The current match stays the one at (or after) where it was, wrapping to the first.
  const after = matches.findIndex((match) => match.from >= currentAt);
  const next: FindState = { ...state, matches, current: matches.length === 0 ? -1 : after === -1 ? 0 : after, decorations };
  // The touched blocks' matches, and the current one, drawn again; the rest of the page is left as it was.
  const redraw = [...fresh, ...(matches[next.current] && !fresh.includes(matches[next.current]) ? [matches[next.current]] : [])];
  const currentMatch = matches[next.current];
  if (currentMatch && !fresh.includes(currentMatch)) next.decorations = next.decorations.remove(next.decorations.find(currentMatch.from, currentMatch.to));
  next.decorations = next.decorations.add(doc, redraw.map((match) => decoration(match, match === currentMatch)));
  return next;
}

/**
 * Find in page, in the editor: the matches are ProseMirror decorations (the document is not changed, so nothing
 * is saved or sent to the other people editing), kept up to date as the page is edited.
 */
export const FindInPage = Extension.create({
  name: 'findInPage',
  addProseMirrorPlugins() {
    return [
      new Plugin<FindState>({
        key,
        state: {
          init: () => EMPTY,
          apply: (tr, state) => {
            const meta = tr.getMeta(key) as FindMeta | undefined;
            if (meta && 'query' in meta) {
              if (!meta.query) return EMPTY;
              const matches = searchRange(tr.doc, 0, tr.doc.content.size, meta.query, meta.caseSensitive).flatMap((block) => block.matches);
              const current = matches.length ? 0 : -1;
              return { query: meta.query, caseSensitive: meta.caseSensitive, matches, current, decorations: decorate(tr.doc, matches, current) };
            }
            if (meta && 'current' in meta) return withCurrent(state, tr.doc, meta.current);
            if (tr.docChanged && state.query) return afterEdit(state, tr);
            return state;
          },
        },
        props: { decorations: (state) => key.getState(state)?.decorations },
      }),
    ];
  },
});

function countOf(state: EditorState): FindCount {
  const find = key.getState(state) ?? EMPTY;
  return { count: find.matches.length, current: find.current };
}

/**
 * The shared document's undo manager when the page is open live. Found by the plugin's key name rather than
 * by importing y-tiptap's key, which would pull Yjs into the editor's chunk for pages that are not live.
 */
function liveUndo(state: EditorState): { stopCapturing(): void } | undefined {
  const plugin = state.plugins.find((p) => (p as unknown as { key: string }).key.startsWith('y-undo$'));
  return (plugin?.getState(state) as { undoManager?: { stopCapturing(): void } } | undefined)?.undoManager;
}

/** Starts a step of undo of its own, whether the page is open live (the shared document's undo) or not. */
function ownUndoStep(editor: Editor, tr: Transaction): Transaction {
  liveUndo(editor.state)?.stopCapturing();
  return closeHistory(tr);
}

/** The editor as a find bar's target: search, move, replace one or all (one step of undo). */
export function editorFindTarget(editor: Editor): FindTarget {
  const reveal = () => {
    requestAnimationFrame(() => editor.view.dom.querySelector('.find-current')?.scrollIntoView({ block: 'center', inline: 'nearest' }));
  };
  const dispatch = (meta: FindMeta) => editor.view.dispatch(editor.state.tr.setMeta(key, meta).setMeta('addToHistory', false));
  return {
    canReplace: () => editor.isEditable,
    search(query, caseSensitive) {
      dispatch({ query, caseSensitive });
      reveal();
      return countOf(editor.state);
    },
    move(step) {
      const { count, current } = countOf(editor.state);
      if (count === 0) return { count, current };
      dispatch({ current: (current + step + count) % count });
      reveal();
      return countOf(editor.state);
    },
    replace(text) {
      const find = key.getState(editor.state);
      const match = find?.matches[find.current];
      if (!match) return countOf(editor.state);
      editor.view.dispatch(editor.state.tr.insertText(text, match.from, match.to));
      reveal();
      return countOf(editor.state);
    },
    replaceAll(text) {
      const find = key.getState(editor.state);
      if (!find?.matches.length) return countOf(editor.state);
      const tr = ownUndoStep(editor, editor.state.tr);
      // From the last to the first, so the positions of those not replaced yet stay true.
      for (const match of [...find.matches].reverse()) tr.insertText(text, match.from, match.to);
      editor.view.dispatch(closeHistory(tr));
      // What comes next is a step of its own too.
      liveUndo(editor.state)?.stopCapturing();
      return countOf(editor.state);
    },
    count: () => countOf(editor.state),
    clear() {
      if (!editor.isDestroyed) dispatch({ query: '', caseSensitive: false });
    },
    focusBack() {
      if (!editor.isDestroyed) editor.view.focus();
    },
    owns: (element) => editor.view.dom.contains(element),
    listen(listener) {
      // Only when the count or the current match changed: typing elsewhere in the page redraws nothing.
      let last = countOf(editor.state);
      const update = () => {
        const now = countOf(editor.state);
        if (now.count === last.count && now.current === last.current) return;
        last = now;
        listener(now);
      };
      editor.on('transaction', update);
      return () => editor.off('transaction', update);
    },
  };
}
