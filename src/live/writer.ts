import * as Y from 'yjs';
import type { Actor, AppServices, Context } from '../context.ts';
import { createContext } from '../context.ts';
import { Conflict, NotFound } from '../errors.ts';
import { getChangeRequestPage } from '../modules/change-request-content/service.ts';
import { patchPageIn } from '../modules/page-edits/service.ts';
import { documentOfContent, editorContentOf, updateTowards, yDocFor } from './model.ts';
import type { LiveName } from './names.ts';
import { applyInSteps, compactLive, loadLive, type Folded } from './store.ts';
import { changeRequestAccess } from '../access/change-requests.ts';
import { findRevision } from '../content/revisions.ts';
import { loadTree } from '../content/tree.ts';

/**
 * A live document and the change request's page: the page read into a new document, and the document
 * written back as an ordinary revision through the page-edit writer of the API (`patchPageIn`: the body as
 * a document, written over the page's Markdown, in one transaction that moves the change request's head).
 * The write names the revision the document last agreed with as its `baseRevision`, so an API edit made
 * since is merged line by line, as the API merges two saves; the merged page is then laid into the live
 * document as a Yjs diff computed from the state that was written, so text typed during the write is kept.
 */

/** The page as the change request holds it now, as a Yjs state. */
export async function initialPage(ctx: Context, name: LiveName): Promise<{ state: Uint8Array; revision: string }> {
  const view = await getChangeRequestPage(ctx, name.spaceId, name.changeRequestId, name.pageId, { format: 'document' });
  if (view.page.node.type !== 'document') throw new NotFound(`The page "${name.pageId}" is a ${view.page.node.type}: only document pages are edited live.`);
  const body = await view.body();
  const doc = await yDocFor(body && body.format === 'document' ? body.document : undefined);
  const state = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return { state, revision: view.revision.id };
}

/**
 * The change request's head revision, read as the caller (who must still be able to read the page). The
 * page's body is not read: the editor's content becomes the page's document with nothing taken from the
 * stored one (a document read from Markdown has empty `data`, the only member the mapping would carry
 * over), and the page writer reads the stored Markdown itself.
 */
async function headRevision(ctx: Context, name: LiveName): Promise<string> {
  try {
    const view = await getChangeRequestPage(ctx, name.spaceId, name.changeRequestId, name.pageId, { format: 'document' });
    return view.revision.id;
  } catch (error) {
    // The change request still readable, its page gone: deleted meanwhile. Said as such to the people in it
    // (the reason their editors show), not with the page's id.
    if (!(error instanceof NotFound)) throw error;
    await changeRequestAccess(ctx, name.spaceId, name.changeRequestId);
    throw new NotFound(PAGE_DELETED);
  }
}

/** The reason given to the people in a live page that was deleted from its change request. */
export const PAGE_DELETED = 'this page was deleted from the change request.';

/** The hash of a page's body (its Markdown object) at a revision; undefined when the page or revision is not there. */
async function bodyAt(ctx: Context, revisionId: string, pageId: string): Promise<string | undefined> {
  const revision = await findRevision(ctx, revisionId);
  if (!revision) return undefined;
  return (await loadTree(ctx, revision.root)).byId.get(pageId)?.node.body;
}

/**
 * Whether the page's body changed since the revision the live document last agreed with: by the API, Git or
 * another writer. A change elsewhere in the change request (another page, this page's title or position) is
 * not one: laying the written page back then would only bring the writer's normalisation into the editors,
 * under the caret of someone typing.
 */
async function bodyChangedSince(ctx: Context, baseRevision: string | null, currentRevision: string, pageId: string): Promise<boolean> {
  if (!baseRevision) return true;
  if (baseRevision === currentRevision) return false;
  return (await bodyAt(ctx, baseRevision, pageId)) !== (await bodyAt(ctx, currentRevision, pageId));
}

/** Where a write says that the live text was written over an API edit of the same lines. */
export interface WriteLog {
  warn(object: object, message: string): void;
}

/** The person a write is made for: the last one who typed (their access is checked again by the writer). */
async function editorOf(services: AppServices, userId: string | undefined, fallback: Actor | undefined): Promise<Actor | undefined> {
  if (fallback && (!userId || fallback.userId === userId)) return fallback;
  if (!userId) return undefined;
  const user = await services.db.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirst();
  return user ? { userId: user.id, email: user.email } : fallback;
}

/**
 * The stored state (base64, as stored) each document is known to hold already: set when a write's compaction
 * folded only what the document had applied (the stored state and updates it loaded, and the merged page it
 * applied), so the next write need not decode and apply that state again — most of the stored bytes, and a
 * no-op for Yjs on a document holding it. Any other compaction (another process's, one that folded an update
 * this document had not applied) leaves a state not named here, and the next write applies everything.
 */
const heldState = new WeakMap<Y.Doc, string>();

/** Whether the stored `state` and `updateIds` of a compaction are all among what `doc` applied. */
function foldedOnlyApplied(folded: Folded, applied: { state: string; updateIds: string[] }): boolean {
  if (folded.over.state !== applied.state) return false;
  const ids = new Set(applied.updateIds);
  return folded.over.updateIds.every((id) => ids.has(id));
}

/**
 * Writes `doc` to its change request when it differs from the page, merges what the page gained since into
 * `doc`, and compacts the stored state; answers the stored size and the state vector written. Run by one process at a time per document
 * (the Redis extension's lock, or the only process).
 */
export async function writeLive(services: AppServices, name: LiveName, doc: Y.Doc, lastEditor: Actor | undefined, log: WriteLog): Promise<{ size: number; written?: Uint8Array }> {
  const operator = createContext(services, null);
  const stored = await loadLive(operator, name);
  if (!stored) return { size: 0 };
  const applied = { state: stored.stateText, updateIds: stored.updateIds };
  const remember = (folded: Folded) => {
    if (foldedOnlyApplied(folded, applied)) heldState.set(doc, folded.state);
    else heldState.delete(doc);
  };
  const actor = await editorOf(services, stored.lastEditor, lastEditor);
  if (!actor) {
    await applyInSteps(doc, heldState.get(doc) === stored.stateText ? stored.parts.slice(1) : stored.parts, null);
    return { size: await compactLive(operator, name, null, undefined, remember) };
  }
  const ctx = createContext(services, actor);
  const current = { revision: await headRevision(ctx, name) };
  // Whether the page's body changed since the revision the live document last agreed with (asked before the
  // write: both revisions are known now), which decides below whether the written page is laid back.
  const changedSince = await bodyChangedSince(operator, stored.baseRevision, current.revision, name.pageId);
  // Everything stored (other processes' updates too) and everything this process holds; the stored state
  // not again when `doc` holds it already (its last write folded only what it had applied).
  // Origin null: the server's own changes are not a connection's, so they start no store of their own.
  await applyInSteps(doc, heldState.get(doc) === stored.stateText ? stored.parts.slice(1) : stored.parts, null);
  // The document as it is now, read before any await (people go on typing into `doc` meanwhile): its
  // state (to lay a merged page over later; encoded only when it will be), its state vector (what the write
  // covers) and its content.
  const at = changedSince ? Y.encodeStateAsUpdate(doc) : null;
  const covered = Y.encodeStateVector(doc);
  const content = editorContentOf(doc);
  const document = await documentOfContent(content);
  const target = { spaceId: name.spaceId, changeRequestId: name.changeRequestId };
  let written;
  try {
    written = await patchPageIn(ctx, target, name.pageId, { document, baseRevision: stored.baseRevision });
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
    // The same lines were changed here and through the API since the last write: the live text is written
    // over them (the API's version stays in the change request's history, one revision back).
    log.warn({ document: name.key, err: error }, 'live document and an API edit changed the same lines; the live text was written over them');
    written = await patchPageIn(ctx, target, name.pageId, { document });
  }
  // Laid back into the live document only when the page's body changed since the last write: otherwise the
  // written page differs from the live one by the writer's normalisation alone, and laying that back made
  // the editors normalise again, a new edit that was written again, without end (the page never "saved").
  // Asked first: reading the written page back parses all its Markdown, work a write that only carries the
  // live text (nearly every write) does not need.
  const body = at && written.page ? await written.page.body() : null;
  const merged = body && body.format === 'document' ? body.document : undefined;
  const extra = at && merged ? await updateTowards(at, merged) : null;
  if (extra) Y.applyUpdate(doc, extra, null);
  // The state vector of what was written: a browser whose own edits it covers shows them as saved.
  return { size: await compactLive(operator, name, extra, written.revision, remember), written: covered };
}
