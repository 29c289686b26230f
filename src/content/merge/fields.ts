import type { PageFields } from '../nodes.ts';
import { canonicalJson } from '../revisions.ts';

const ABSENT = '\u0000absent';

/** A value's comparable text: canonical JSON, with absent (undefined) apart from every value. */
export function valueKey(value: unknown): string {
  return value === undefined ? ABSENT : canonicalJson(value);
}

export function sameValue(a: unknown, b: unknown): boolean {
  return valueKey(a) === valueKey(b);
}

/**
 * The three-way merge of one value: a side that left it as in the base takes the other side's; the same
 * change on both sides is no conflict. `undefined` stands for absent (in the base: the value did not exist).
 */
export function threeWay<T>(base: T | undefined, ours: T | undefined, theirs: T | undefined): { ok: true; value: T | undefined } | { ok: false } {
  const b = valueKey(base);
  const o = valueKey(ours);
  const t = valueKey(theirs);
  if (o === t || t === b) return { ok: true, value: ours };
  if (o === b) return { ok: true, value: theirs };
  return { ok: false };
}

type Record_ = Record<string, unknown>;

const isMap = (value: unknown): value is Record_ | undefined => value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value));

/**
 * Per-key three-way merge of string-keyed maps; returns the merged map (undefined when empty) and the keys
 * both sides changed differently.
 */
export function mergeMaps(base: Record_ | undefined, ours: Record_ | undefined, theirs: Record_ | undefined): { value: Record_ | undefined; conflicts: string[] } {
  const keys = [...new Set([...Object.keys(base ?? {}), ...Object.keys(ours ?? {}), ...Object.keys(theirs ?? {})])].sort();
  const value: Record_ = {};
  const conflicts: string[] = [];
  for (const key of keys) {
    const merged = threeWay(base?.[key], ours?.[key], theirs?.[key]);
    if (!merged.ok) conflicts.push(key);
    else if (merged.value !== undefined) value[key] = merged.value;
  }
  return { value: Object.keys(value).length > 0 ? value : undefined, conflicts };
}

/** Settings merged key by key inside (a layout option, a page variable), not as a whole. */
const MAP_FIELDS = new Set(['layout', 'variables']);
/** Mutable metadata: when both sides changed it differently, ours is kept and nothing conflicts. */
const OURS_WINS = new Set(['git']);

export interface FieldConflict {
  kind: 'title' | 'settings';
  field: string;
  detail: string;
}

const show = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

/**
 * The three-way merge of a page's settings (everything but its id, body and children), field by field.
 * `base` is undefined for a page that both sides added (with the same id).
 */
export function mergePageFields(base: PageFields | undefined, ours: PageFields, theirs: PageFields): { fields: PageFields; conflicts: FieldConflict[] } {
  const b = (base ?? {}) as Record_;
  const o = ours as unknown as Record_;
  const t = theirs as unknown as Record_;
  const fields: Record_ = { id: ours.id, type: ours.type };
  const conflicts: FieldConflict[] = [];
  if (ours.type !== theirs.type) conflicts.push({ kind: 'settings', field: 'type', detail: `Both sides added this page, as a ${ours.type} (ours) and a ${theirs.type} (theirs).` });
  const keys = [...new Set([...Object.keys(b), ...Object.keys(o), ...Object.keys(t)])].filter((key) => key !== 'id' && key !== 'type' && key !== 'body' && key !== 'children').sort();
  for (const key of keys) {
    if (MAP_FIELDS.has(key) && isMap(b[key]) && isMap(o[key]) && isMap(t[key])) {
      const merged = mergeMaps(b[key] as Record_ | undefined, o[key] as Record_ | undefined, t[key] as Record_ | undefined);
      if (merged.value !== undefined) fields[key] = merged.value;
      for (const inner of merged.conflicts) {
        const at = (value: unknown) => show((value as Record_ | undefined)?.[inner]);
        conflicts.push({ kind: 'settings', field: `${key}.${inner}`, detail: `Both sides changed "${key}.${inner}" differently (ours: ${at(o[key])}, theirs: ${at(t[key])}).` });
      }
      continue;
    }
    const merged = threeWay(b[key], o[key], t[key]);
    if (merged.ok) {
      if (merged.value !== undefined) fields[key] = merged.value;
    } else if (OURS_WINS.has(key)) {
      if (o[key] !== undefined) fields[key] = o[key];
    } else if (key === 'title') {
      conflicts.push({ kind: 'title', field: key, detail: `Both sides renamed the page differently (ours: ${show(o[key])}, theirs: ${show(t[key])}).` });
    } else {
      conflicts.push({ kind: 'settings', field: key, detail: `Both sides changed "${key}" differently (ours: ${show(o[key])}, theirs: ${show(t[key])}).` });
    }
  }
  return { fields: fields as unknown as PageFields, conflicts };
}
