/**
 * The bounded memories of the search marks made in Node (postgres-lexicon.ts, sqlite-marks-lexicon.ts): what a
 * process has learned of words and texts, kept per process, the oldest forgotten first.
 */

/** Keeps `value` under `key`, forgetting the oldest entry when `cache` holds `max` already. */
export function keep<V>(cache: Map<string, V>, key: string, value: V, max: number): void {
  if (cache.size >= max) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}

/**
 * A copy of a string that does not hold on to the text it was cut from: V8 keeps a slice of 13 characters or more
 * as a view of the whole string, which a kept slice would keep alive.
 */
export function own(slice: string): string {
  return slice.length < 13 ? slice : Buffer.from(slice, 'utf8').toString('utf8');
}

/** Whole texts and what was made of them: texts of at most `maxText` characters, `maxChars` characters in all. */
export class KeptTexts<V> {
  private readonly texts = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly maxText: number,
    private readonly maxChars: number,
  ) {}

  get(text: string): V | undefined {
    return this.texts.get(text);
  }

  keep(text: string, value: V): void {
    if (text.length > this.maxText || this.texts.has(text)) return;
    for (const old of this.texts.keys()) {
      if (this.chars + text.length <= this.maxChars) break;
      this.texts.delete(old);
      this.chars -= old.length;
    }
    this.texts.set(text, value);
    this.chars += text.length;
  }

  clear(): void {
    this.texts.clear();
    this.chars = 0;
  }
}
