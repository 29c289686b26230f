import { diff3Merge } from 'node-diff3';

/** A place where both sides changed the same lines of the base (1-based, inclusive; `0` lines: an insertion). */
export interface TextConflict {
  /** The first line of the base the overlapping edits touch (for an insertion: the line it goes before). */
  line: number;
  /** How many lines of the base they replace. */
  lines: number;
  ours: string[];
  theirs: string[];
}

export type TextMerge = { merged: true; text: string } | { merged: false; conflicts: TextConflict[] };

/**
 * Merges two edits of a text line by line (diff3): edits of different parts of the base both apply; edits
 * that touch the same or adjacent lines conflict unless they are the same edit.
 */
export function mergeText(base: string, ours: string, theirs: string): TextMerge {
  if (ours === theirs || theirs === base) return { merged: true, text: ours };
  if (ours === base) return { merged: true, text: theirs };
  const regions = diff3Merge<string>(ours.split('\n'), base.split('\n'), theirs.split('\n'), { excludeFalseConflicts: true });
  const lines: string[] = [];
  const conflicts: TextConflict[] = [];
  for (const region of regions) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) {
      const { a, b, o, oIndex } = region.conflict;
      conflicts.push({ line: oIndex + 1, lines: o.length, ours: a, theirs: b });
    }
  }
  return conflicts.length > 0 ? { merged: false, conflicts } : { merged: true, text: lines.join('\n') };
}

/** "line 4", "lines 4–6", "before line 4": where in the base a conflict is. */
export function describeLines(conflict: TextConflict): string {
  if (conflict.lines === 0) return `an insertion before line ${conflict.line}`;
  if (conflict.lines === 1) return `line ${conflict.line}`;
  return `lines ${conflict.line}–${conflict.line + conflict.lines - 1}`;
}
