import type { StoredFile } from '../revisions.ts';
import { mergeMaps, sameValue, threeWay } from './fields.ts';
import { mergeOrder } from './order.ts';
import type { MergeConflict } from './types.ts';

/** The parts of a file that change together: its bytes and what describes them. */
const content = (file: StoredFile) => ({ contentType: file.contentType, size: file.size, blob: file.blob, dimensions: file.dimensions });

/**
 * Files, by id: added on either side → kept; removed on one side and unchanged on the other → removed;
 * removed on one side and changed on the other → conflict; changed on both → merged part by part (name;
 * bytes with their type, size and dimensions; Git metadata, where ours wins), conflict when both changed
 * the same part differently.
 */
export function mergeFiles(base: StoredFile[], ours: StoredFile[], theirs: StoredFile[]): { files: StoredFile[]; conflicts: MergeConflict[] } {
  const b = new Map(base.map((file) => [file.id, file]));
  const o = new Map(ours.map((file) => [file.id, file]));
  const t = new Map(theirs.map((file) => [file.id, file]));
  const merged = new Map<string, StoredFile>();
  const conflicts: MergeConflict[] = [];
  const conflict = (file: StoredFile, detail: string) => conflicts.push({ kind: 'file', fileId: file.id, title: file.name, detail });
  for (const id of new Set([...b.keys(), ...o.keys(), ...t.keys()])) {
    const [bf, of, tf] = [b.get(id), o.get(id), t.get(id)];
    if (of && tf) {
      const name = threeWay(bf?.name, of.name, tf.name);
      const bytes = threeWay(bf && content(bf), content(of), content(tf));
      const git = threeWay(bf?.git, of.git, tf.git);
      if (!name.ok) conflict(of, `Both sides renamed the file differently (ours: "${of.name}", theirs: "${tf.name}").`);
      if (!bytes.ok) conflict(of, 'Both sides replaced the file’s content differently.');
      if (name.ok && bytes.ok) {
        const file: StoredFile = { id, name: name.value!, ...bytes.value! };
        if (file.dimensions === undefined) delete file.dimensions;
        const gitValue = git.ok ? git.value : of.git;
        if (gitValue) file.git = gitValue;
        merged.set(id, file);
      }
    } else if (of || tf) {
      const kept = (of ?? tf)!;
      if (!bf) merged.set(id, kept);
      else if (!sameValue(kept, bf)) conflict(kept, of ? 'Theirs deleted the file, ours changed it.' : 'Ours deleted the file, theirs changed it.');
    }
  }
  const order = mergeOrder(
    base.map((file) => file.id),
    ours.map((file) => file.id),
    theirs.map((file) => file.id),
    () => undefined,
  ).filter((id) => merged.has(id));
  const placed = new Set(order);
  const missing = [...merged.keys()].filter((id) => !placed.has(id));
  return { files: [...order, ...missing].map((id) => merged.get(id)!), conflicts };
}

/** Space variables, key by key. */
export function mergeVariables(base: Record<string, unknown>, ours: Record<string, unknown>, theirs: Record<string, unknown>): { variables: Record<string, unknown>; conflicts: MergeConflict[] } {
  const merged = mergeMaps(base, ours, theirs);
  const conflicts: MergeConflict[] = merged.conflicts.map((variable) => ({
    kind: 'variable',
    variable,
    title: variable,
    detail: `Both sides changed the variable "${variable}" differently (ours: ${JSON.stringify(ours[variable]) ?? 'removed'}, theirs: ${JSON.stringify(theirs[variable]) ?? 'removed'}).`,
  }));
  return { variables: merged.value ?? {}, conflicts };
}

const idOf = (item: unknown): string | undefined =>
  item && typeof item === 'object' && typeof (item as { id?: unknown }).id === 'string' ? (item as { id: string }).id : undefined;

/**
 * Reusable contents: by id when every item has one (each item merged as a whole), else the list as a whole.
 */
export function mergeReusableContents(base: unknown[], ours: unknown[], theirs: unknown[]): { reusableContents: unknown[]; conflicts: MergeConflict[] } {
  const all = [...base, ...ours, ...theirs];
  if (!all.every((item) => idOf(item) !== undefined)) {
    const merged = threeWay(base, ours, theirs);
    if (merged.ok) return { reusableContents: merged.value ?? [], conflicts: [] };
    return { reusableContents: ours, conflicts: [{ kind: 'reusable-content', reusableContentId: '', title: 'Reusable contents', detail: 'Both sides changed the reusable contents differently.' }] };
  }
  const byId = (items: unknown[]) => new Map(items.map((item) => [idOf(item)!, item]));
  const [b, o, t] = [byId(base), byId(ours), byId(theirs)];
  const merged = new Map<string, unknown>();
  const conflicts: MergeConflict[] = [];
  for (const id of new Set([...b.keys(), ...o.keys(), ...t.keys()])) {
    const result = threeWay(b.get(id), o.get(id), t.get(id));
    if (!result.ok) {
      const title = (o.get(id) ?? t.get(id)) as { title?: unknown };
      conflicts.push({ kind: 'reusable-content', reusableContentId: id, title: typeof title?.title === 'string' ? title.title : id, detail: 'Both sides changed this reusable content differently (or one deleted it while the other changed it).' });
    } else if (result.value !== undefined) merged.set(id, result.value);
  }
  const order = mergeOrder([...b.keys()], [...o.keys()], [...t.keys()], () => undefined).filter((id) => merged.has(id));
  const placed = new Set(order);
  const missing = [...merged.keys()].filter((id) => !placed.has(id));
  return { reusableContents: [...order, ...missing].map((id) => merged.get(id)), conflicts };
}
