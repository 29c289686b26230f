/**
 * Memos of the Markdown reader and writer, by content: a piece of Markdown text → the Markdown tree it
 * reads as (parse-pieces.ts), and a top-level node of a Markdown tree (with the little writer state it is
 * written in) → the text it is written as (render-memo.ts). Keys are the content itself, so an entry is
 * never stale: a page saved again finds every block it did not change already read and written, and only
 * the edited blocks are read and written again (issue 26's one-paragraph save, decision record 0117).
 *
 * Each memo is bounded by the characters of its keys and values, oldest use first out. Switched off, the
 * reader and writer take their plain whole-page path (the property tests compare the two byte for byte).
 */

let enabled = true;

/** Whether the memos are used (on unless a test compares the plain path). */
export function markdownMemoEnabled(): boolean {
  return enabled;
}

/** Switches the memos on or off; answers the previous setting. */
export function setMarkdownMemo(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

/** Runs `fn` with the memos off (the plain path), then restores the setting. */
export function withoutMarkdownMemo<T>(fn: () => T): T {
  const was = setMarkdownMemo(false);
  try {
    return fn();
  } finally {
    setMarkdownMemo(was);
  }
}

/**
 * A map bounded by a budget of characters (each entry counts its own size): two generations, the entries
 * used since the young one filled to half the budget kept, the older ones dropped when it fills again (a
 * cheap least-recently-used: a hit costs one lookup, not a reordering).
 */
export class BoundedMemo<V> {
  private young = new Map<string, { value: V; size: number }>();
  private old = new Map<string, { value: V; size: number }>();
  private youngSize = 0;

  constructor(private readonly budget: number) {}

  get(key: string): V | undefined {
    const entry = this.young.get(key);
    if (entry) return entry.value;
    const aged = this.old.get(key);
    if (!aged) return undefined;
    this.old.delete(key);
    this.keep(key, aged);
    return aged.value;
  }

  set(key: string, value: V, size: number): void {
    if (size > this.budget / 2) return;
    this.old.delete(key);
    const had = this.young.get(key);
    if (had) this.youngSize -= had.size;
    this.keep(key, { value, size });
  }

  private keep(key: string, entry: { value: V; size: number }): void {
    if (this.youngSize + entry.size > this.budget / 2) {
      this.old = this.young;
      this.young = new Map();
      this.youngSize = 0;
    }
    this.young.set(key, entry);
    this.youngSize += entry.size;
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
    this.youngSize = 0;
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
