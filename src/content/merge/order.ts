import { diff3MergeRegions, diffComm } from 'node-diff3';

export type Side = 'ours' | 'theirs';

export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/**
 * The merged order of a list of keys (pages among their siblings, files): diff3 over the three lists, so
 * that each side's insertions, removals and moves apply where the other side left the list alone. Where
 * both changed the same stretch, ours come first, then theirs. A key that ends up twice (moved by one side
 * next to a stretch the other changed) keeps the place that `prefer(key)` names, else its first place.
 * The caller filters out keys that do not belong to the result (moved away, removed).
 */
export function mergeOrder(base: string[], ours: string[], theirs: string[], prefer: (key: string) => Side | undefined): string[] {
  if (sameList(ours, base)) return [...theirs];
  if (sameList(theirs, base) || sameList(ours, theirs)) return [...ours];
  const occurrences: Array<{ key: string; from: Side | 'base' }> = [];
  for (const region of diff3MergeRegions(ours, base, theirs)) {
    if (region.stable) {
      const from = region.buffer === 'a' ? 'ours' : region.buffer === 'b' ? 'theirs' : 'base';
      for (const key of region.bufferContent) occurrences.push({ key, from });
    } else {
      for (const key of region.aContent) occurrences.push({ key, from: 'ours' });
      if (!sameList(region.aContent, region.bContent)) for (const key of region.bContent) occurrences.push({ key, from: 'theirs' });
    }
  }
  const chosen = new Map<string, number>();
  occurrences.forEach((occurrence, i) => {
    const current = chosen.get(occurrence.key);
    if (current === undefined) chosen.set(occurrence.key, i);
    else if (occurrence.from === prefer(occurrence.key) && occurrences[current].from !== occurrence.from) chosen.set(occurrence.key, i);
  });
  return occurrences.filter((occurrence, i) => chosen.get(occurrence.key) === i).map((occurrence) => occurrence.key);
}

/**
 * The keys that a side moved among the keys it shares with the base: those outside the longest common
 * subsequence of the two lists (restricted to their common keys).
 */
export function reorderedKeys(base: string[], side: string[]): Set<string> {
  if (sameList(base, side)) return new Set();
  const inSide = new Set(side);
  const inBase = new Set(base);
  const b = base.filter((key) => inSide.has(key));
  const s = side.filter((key) => inBase.has(key));
  const moved = new Set<string>();
  if (sameList(b, s)) return moved;
  for (const chunk of diffComm(b, s)) if (!chunk.common) for (const key of chunk.buffer1) moved.add(key);
  return moved;
}
