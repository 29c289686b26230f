import type { Context } from '../../context.ts';
import { inTransaction, requireActor } from '../../context.ts';
import { blobHash, recordPutBlobs, storeBlob } from '../../content/files.ts';
import { createRevision, findRevision, type StoredFile } from '../../content/revisions.ts';
import { loadRoot } from '../../content/tree.ts';
import { RevisionWriter } from '../../content/writer.ts';
import { BadRequest } from '../../errors.ts';
import type { FileView } from '../content/service.ts';
import { moveTarget, openTarget, scopeOf, type EditTarget } from '../page-edits/target.ts';
import { cleanFileName, MAX_UPLOAD_BYTES, sniffUpload } from './sniff.ts';

/**
 * A file added to a change request by upload (Quire's addition `uploadFileInChangeRequest`): the bytes are
 * checked (size, kind by content sniffing, see sniff.ts), stored once as a blob, and the file is added to
 * the change request's head in a new revision of type "edits", as a page edit is. Who may edit the change
 * request may upload (the edit level; not while the space is locked, 423; not once the change request is
 * merged or archived, 409).
 *
 * Uploading is safe to repeat: the same bytes under the same name give back the file the head already
 * holds (no new revision), so a browser that retries after a lost answer does not make a copy. A name the
 * head already gives to other bytes gets "-1", "-2" … before its extension, so two files never share the
 * path `.gitbook/assets/<name>` an export writes.
 */
export async function uploadFile(ctx: Context, target: Required<EditTarget>, rawName: string, bytes: Buffer): Promise<{ view: FileView; created: boolean }> {
  const user = requireActor(ctx);
  // Checked before the bytes are looked at: an outsider learns nothing from the refusal of a file.
  await openTarget(ctx, target);
  const name = cleanFileName(rawName);
  if (bytes.length > MAX_UPLOAD_BYTES) throw new BadRequest(`A file may hold at most ${MAX_UPLOAD_BYTES} bytes; "${name}" holds ${bytes.length}.`);
  const sniffed = sniffUpload(name, bytes);
  const hash = blobHash(bytes);
  await storeBlob(ctx, bytes);
  return inTransaction(ctx, async (tx) => {
    const opened = await openTarget(tx, target, true);
    const head = await findRevision(tx, opened.head);
    if (!head) throw new Error(`The head revision ${opened.head} of change request ${target.changeRequestId} is missing.`);
    const root = await loadRoot(tx, head.root);
    const same = root.files.find((file) => file.name === name && file.blob === hash);
    if (same) return { view: { ...scopeOf(opened, head), file: same }, created: false };
    const writer = await RevisionWriter.fromRoot(tx, head.root);
    // The blob was stored before the transaction; touching it here keeps it from a collection that runs now.
    await recordPutBlobs(tx, [{ hash, size: bytes.length }]);
    const file: Omit<StoredFile, 'id'> = { name: freeName(name, root.files), contentType: sniffed.contentType, size: bytes.length, blob: hash, ...(sniffed.dimensions ? { dimensions: sniffed.dimensions } : {}) };
    const id = writer.addFile(file);
    const revisionId = await createRevision(tx, { spaceId: opened.space.id, type: 'edits', parents: [opened.head], root: await writer.write(tx) });
    await moveTarget(tx, opened, revisionId, user.userId);
    const revision = await findRevision(tx, revisionId);
    if (!revision) throw new Error(`The revision ${revisionId} just written is missing.`);
    return { view: { ...scopeOf(opened, revision), file: { ...file, id } }, created: true };
  });
}

/** `name`, or `name-1.ext`, `name-2.ext` … the first no file of the revision holds (compared without case, as Git checkouts do). */
export function freeName(name: string, files: Array<Pick<StoredFile, 'name' | 'git'>>): string {
  const taken = new Set(files.flatMap((file) => [file.name.toLowerCase(), ...(file.git ? [file.git.path.split('/').pop()!.toLowerCase()] : [])]));
  if (!taken.has(name.toLowerCase())) return name;
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = `${stem}-${n}${extension}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
