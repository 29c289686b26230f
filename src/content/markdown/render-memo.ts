/**
 * Writing a Markdown tree with its top-level nodes remembered: a top-level node is written once, and found
 * again by its content the next time the page (or any page) holds it, so a page saved again writes only
 * its edited blocks. What a top-level node's text depends on besides the node: the bullet the list before
 * it used (a list right after a list takes the other bullet), which the key holds and a found entry sets
 * again, and the constructs open around it and its column, the same for every top-level node (they are in
 * the key all the same). How nodes are joined is left to mdast-util-to-markdown itself (`containerFlow`):
 * only the handler of each top-level node is answered from the memo.
 */
import type { Root } from 'mdast';
import type { Handle, State } from 'mdast-util-to-markdown';
import { BoundedMemo, markdownMemoEnabled } from './memo.ts';

/** Characters of keys and texts remembered. */
const WRITTEN_BUDGET = 4_000_000;

interface Written {
  value: string;
  /** `state.bulletLastUsed` once the node is written. */
  bullet: string | undefined;
}

const written = new BoundedMemo<Written>(WRITTEN_BUDGET);

/** The JSON of frozen nodes (those the memos hand out, shared from page to page): they cannot change. */
const frozenJSON = new WeakMap<object, string>();

function jsonOf(node: object): string {
  if (!Object.isFrozen(node)) return JSON.stringify(node);
  let json = frozenJSON.get(node);
  if (json === undefined) frozenJSON.set(node, (json = JSON.stringify(node)));
  return json;
}

/** What mdast-util-phrasing 4 counts as phrasing: a root holding one is written as phrasing. */
const PHRASING = new Set(['break', 'delete', 'emphasis', 'footnote', 'footnoteReference', 'image', 'imageReference', 'inlineCode', 'inlineMath', 'link', 'linkReference', 'mdxJsxTextElement', 'mdxTextExpression', 'strong', 'text', 'textDirective']);

/** Top-level nodes the memo answers for (any other node in a root: the root is written as usual). */
const FLOW = new Set(['paragraph', 'heading', 'thematicBreak', 'blockquote', 'list', 'code', 'math', 'html', 'table', 'yaml', 'definition', 'footnoteDefinition', 'tagLine']);

/** mdast-util-to-markdown's own `root` handler (handle/root.js), for roots the memo does not answer for. */
function plainRoot(node: Root, state: State, info: Parameters<Handle>[3]): string {
  if (!node.children.some((child) => PHRASING.has(child.type))) return state.containerFlow(node, info);
  const exit = state.enter('phrasing');
  const value = state.containerPhrasing(node, info);
  exit();
  return value;
}

/** The `root` handler: mdast-util-to-markdown's, with each top-level flow node answered from the memo. */
export const rememberingRoot: Handle = (node: Root, _parent, state, info) => {
  if (!markdownMemoEnabled() || !node.children.every((child) => FLOW.has(child.type))) return plainRoot(node, state, info);
  const handle = state.handle;
  const remembering = ((child, childParent, childState, childInfo) => {
    if (childParent !== node) return handle(child, childParent, childState, childInfo);
    const key = `${state.bulletLastUsed ?? ''}\u0000${state.stack.join(',')}\u0000${childInfo.now.column}:${childInfo.lineShift}\u0000${jsonOf(child)}`;
    const known = written.get(key);
    if (known) {
      state.bulletLastUsed = known.bullet;
      return known.value;
    }
    const value = handle(child, childParent, childState, childInfo);
    written.set(key, { value, bullet: state.bulletLastUsed }, key.length + value.length);
    return value;
  }) as State['handle'];
  // zwitch's own members (`handlers`, read by containerPhrasing) go along.
  state.handle = Object.assign(remembering, handle);
  try {
    return state.containerFlow(node, info);
  } finally {
    state.handle = handle;
  }
};

/** Forgets every remembered node (tests). */
export function forgetWritten(): void {
  written.clear();
}
