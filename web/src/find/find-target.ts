/** How many matches, and which one is current (-1: none). */
export interface FindCount {
  count: number;
  current: number;
}

/**
 * What a find bar searches: the editor (decorations, web/src/find/editor-find.ts) or a page drawn read-only
 * (the CSS Custom Highlight API, dom-find.ts).
 */
export interface FindTarget {
  /** Whether Replace and Replace all are offered. */
  canReplace(): boolean;
  search(query: string, caseSensitive: boolean): FindCount;
  move(step: 1 | -1): FindCount;
  replace(text: string): FindCount;
  replaceAll(text: string): FindCount;
  count(): FindCount;
  /** Takes the highlights away. */
  clear(): void;
  /** Gives the focus back to an element of the target (the editor puts its caret back). */
  focusBack(): void;
  owns(element: Element): boolean;
  /** Told when the matches change without the bar asking (an edit, someone else's edit). */
  listen(listener: (count: FindCount) => void): () => void;
}
