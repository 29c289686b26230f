import type { JSONContent } from '@tiptap/core';

export type Kind = 'same' | 'added' | 'removed';

/** One block of the aligned sequence, with where it stands in each version. */
export interface Aligned {
  kind: Kind;
  node: JSONContent;
  beforeIndex?: number;
  afterIndex?: number;
}

/** The top-level blocks of both versions, paired by the longest common sequence: what stayed, went and came. */
export function alignBlocks(before: JSONContent[], after: JSONContent[]): Aligned[] {
  const a = before.map((node) => JSON.stringify(node));
  const b = after.map((node) => JSON.stringify(node));
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lengths[i][j] = a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
  const out: Aligned[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ kind: 'same', node: after[j], beforeIndex: i++, afterIndex: j++ });
    } else if (i < a.length && (j >= b.length || lengths[i + 1][j] >= lengths[i][j + 1])) {
      out.push({ kind: 'removed', node: before[i], beforeIndex: i++ });
    } else {
      out.push({ kind: 'added', node: after[j], afterIndex: j++ });
    }
  }
  return out;
}

