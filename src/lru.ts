/**
 * A bounded map that forgets the least recently used entries first. Each entry has a weight (for a tree:
 * its number of pages), so a few huge values cannot hold an unbounded amount of memory.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;
  /** Whether `newest` is the most recently used key, the Map's last (getting it again then moves nothing). */
  private hasNewest = false;
  private newest: K | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number = Number.POSITIVE_INFINITY,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map keeps insertion order: re-inserting makes this entry the most recently used. A hot entry is
    // asked for again and again: when it is the last already, the delete and insert (and the Map's rehash
    // every so many deletes) are skipped.
    if (this.hasNewest && this.newest === key) return entry.value;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.newest = key;
    this.hasNewest = true;
    return entry.value;
  }

  set(key: K, value: V, weight = 1): void {
    const existing = this.entries.get(key);
    if (existing) {
      this.total -= existing.weight;
      this.entries.delete(key);
      if (this.newest === key) this.forgetNewest();
    }
    // A value heavier than the whole budget is not kept at all.
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.newest = key;
    this.hasNewest = true;
    this.total += weight;
    while (this.entries.size > this.maxEntries || this.total > this.maxWeight) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.total -= this.entries.get(oldest.value)!.weight;
      this.entries.delete(oldest.value);
      if (this.entries.size === 0) this.forgetNewest();
    }
  }

  delete(key: K): void {
    const existing = this.entries.get(key);
    if (!existing) return;
    this.total -= existing.weight;
    this.entries.delete(key);
    if (this.newest === key) this.forgetNewest();
  }

  private forgetNewest(): void {
    this.hasNewest = false;
    this.newest = undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
    this.forgetNewest();
  }
}
