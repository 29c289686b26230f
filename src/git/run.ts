import type { Context } from '../context.ts';
import { inTransaction, nowIso } from '../context.ts';
import { lockSpaceHead, setSpaceHead } from '../content/head.ts';
import { createRevision, findRevision } from '../content/revisions.ts';
import { loadTree } from '../content/tree.ts';
import { BadRequest } from '../errors.ts';
import { mergeRevisions } from '../content/merge/index.ts';
import { automaticMessage } from './auto.ts';
import { posix } from 'node:path';
import { readLayoutConfig } from '../imports/layout.ts';
import { git, gitText } from './cli.ts';
import type { DocsLayout } from './files.ts';
import { exportChanges } from './export-files.ts';
import { incrementalImport } from './incremental.ts';
import { layContent } from './lay.ts';
import { readCommit } from './read.ts';
import { remoteConfig, type Remote } from './remote.ts';
import { fetchRef, listTree, openCache, pushCommit, writeCommit } from './repository.ts';
import { findOperation, findSync, layoutOf, recordSync, revisionAtCommit, setRevisionCommit, updateOperation, type GitOperationRow, type GitRequest, type GitStage, type GitSyncRow } from './state.ts';

/**
 * Runs one Git operation (an import or an export) of the job queue, stage by stage, recording each stage
 * and the outcome on its `git_operations` row. Whatever fails leaves the space as it was: an import writes
 * its revision and moves the space in one transaction at the end; an export pushes one commit, never
 * forcing, and records the new pair only once the push succeeded.
 */

/** Quire's identity as a committer. */
export const QUIRE_COMMITTER = { name: 'Quire', email: 'quire@localhost' };

/** What an operation did. */
export interface OperationOutcome {
  commit: string | null;
  revisionId: string | null;
}

function remoteOf(ctx: Context, request: GitRequest): Remote {
  return { url: request.url, credentials: request.sealedCredentials ? ctx.secrets.decrypt(request.sealedCredentials).toString('utf8') : null };
}

function commitUrl(request: GitRequest, commit: string): string | undefined {
  return request.repoCommitURL ? `${request.repoCommitURL.replace(/\/+$/, '')}/${commit}` : undefined;
}

async function connect(ctx: Context, space: string, request: GitRequest, stage: (stage: GitStage) => Promise<void>, signal?: AbortSignal) {
  await stage('repo_fetch');
  const remote = remoteOf(ctx, request);
  const config = await remoteConfig(remote, { allowPrivate: ctx.config.importAllowPrivate });
  const gitDir = await openCache(ctx.config.dataDir, request.repoCacheID ? `cache:${request.repoCacheID}` : `space:${space}`);
  const { commit } = await fetchRef(gitDir, remote.url, request.ref, config, signal);
  return { gitDir, config, remote, tip: commit };
}

/** Imports the tip of the branch as the space's content (or as a standalone revision). */
export async function runImport(ctx: Context, operation: GitOperationRow, request: GitRequest, stage: (stage: GitStage) => Promise<void>, signal?: AbortSignal): Promise<OperationOutcome> {
  const spaceId = operation.space_id;
  const { gitDir, tip } = await connect(ctx, spaceId, request, stage, signal);
  if (!tip) throw new BadRequest(`The branch "${request.ref}" does not exist in the repository; nothing was imported.`);
  const sync = await findSync(ctx, spaceId);
  if (!request.standalone && !request.force && sync?.last_commit === tip && sync.ref === request.ref && sync.project_directory === request.projectDirectory) {
    // Already in step (Quire's own push coming back, or the same push twice): nothing to import.
    return { commit: tip, revisionId: null };
  }
  await stage('config_check');
  const space = await ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
  const fast = await fastImport(ctx, { gitDir, tip, request, sync, head: space.revision_id });
  const { content, layout } = fast ? { content: null, layout: fast.layout } : await readCommit(ctx, gitDir, tip, { projectDirectory: request.projectDirectory, signal });
  await stage('content_process');
  const message = await gitText(['log', '-1', '--format=%B', tip], { gitDir });
  const committer = await gitText(['log', '-1', '--format=%cn', tip], { gitDir });
  const info = { oid: tip, message: message.trim() || '(no message)', createdByGitBook: committer === QUIRE_COMMITTER.name, ref: request.ref, ...(commitUrl(request, tip) ? { url: commitUrl(request, tip) } : {}) };
  const layOver = async (head: string) => {
    const revision = await findRevision(ctx, head);
    if (fast && head === space.revision_id) return { root: await fast.writer.write(ctx), headRoot: revision?.root };
    const tree = revision ? await loadTree(ctx, revision.root) : null;
    const full = content ?? (await readCommit(ctx, gitDir, tip, { projectDirectory: request.projectDirectory, signal })).content;
    const writer = await layContent(ctx, full, tree);
    return { root: await writer.write(ctx), headRoot: revision?.root };
  };
  let laid = { head: space.revision_id, ...(await layOver(space.revision_id)) };
  await stage('finalize');
  return inTransaction(ctx, async (tx) => {
    const current = await lockSpaceHead(tx, spaceId);
    if (current !== laid.head) laid = { head: current, ...(await layOver(current)) };
    let revisionId: string;
    if (request.standalone) {
      revisionId = await createRevision(tx, { spaceId, type: 'edits', parents: [current], root: laid.root });
      await setRevisionCommit(tx, revisionId, info);
      return { commit: tip, revisionId };
    }
    if (laid.root === laid.headRoot) revisionId = current;
    else {
      revisionId = await createRevision(tx, { spaceId, type: 'edits', parents: [current], root: laid.root });
      await setRevisionCommit(tx, revisionId, info);
      await setSpaceHead(tx, spaceId, revisionId, { expected: current });
    }
    await recordSync(tx, spaceId, request, { commit: tip, revisionId, layout });
    return { commit: tip, revisionId };
  });
}

/**
 * The fast path of a re-import (src/git/incremental.ts): same remote, the space still at the revision of
 * the last sync, and the commits since then only modified known files.
 */
async function fastImport(ctx: Context, input: { gitDir: string; tip: string; request: GitRequest; sync: GitSyncRow | undefined; head: string }) {
  const { sync, request } = input;
  if (!sync?.last_commit || !sync.layout || request.force || request.standalone) return null;
  if (sync.url !== request.url || sync.ref !== request.ref || sync.project_directory !== request.projectDirectory || sync.last_revision_id !== input.head) return null;
  const layout = layoutOf(sync, request.projectDirectory);
  const revision = await findRevision(ctx, input.head);
  if (!revision) return null;
  const writer = await incrementalImport(ctx, { gitDir: input.gitDir, from: sync.last_commit, to: input.tip, layout, tree: await loadTree(ctx, revision.root), headRevisionId: input.head });
  return writer ? { writer, layout } : null;
}

/**
 * Merges the branch's tip into the space: the tip read as a revision over the last synced one (ids kept),
 * then the existing three-way merge of revisions; a conflict stops the export, naming the pages, with
 * nothing changed on either side. Answers the revision that holds exactly the tip's content.
 */
async function mergeBranch(ctx: Context, input: { spaceId: string; gitDir: string; tip: string; request: GitRequest; lastRevisionId: string; signal?: AbortSignal }): Promise<string> {
  const last = await findRevision(ctx, input.lastRevisionId);
  if (!last) throw new BadRequest('The revision of the last sync is gone; import the branch, then export again.');
  const { content } = await readCommit(ctx, input.gitDir, input.tip, { projectDirectory: input.request.projectDirectory, signal: input.signal });
  const root = await (await layContent(ctx, content, await loadTree(ctx, last.root))).write(ctx);
  const message = await gitText(['log', '-1', '--format=%B', input.tip], { gitDir: input.gitDir });
  return inTransaction(ctx, async (tx) => {
    const head = await lockSpaceHead(tx, input.spaceId);
    const theirs = await createRevision(tx, { spaceId: input.spaceId, type: 'edits', parents: [last.id], root });
    await setRevisionCommit(tx, theirs, { oid: input.tip, message: message.trim() || '(no message)', createdByGitBook: false, ref: input.request.ref });
    const merged = await mergeRevisions(tx, { base: last.id, ours: head, theirs });
    if (merged.result === 'conflicts') {
      const named = merged.conflicts.slice(0, 10).map((conflict) => `"${conflict.title}" (${conflict.kind})`).join(', ');
      throw new BadRequest(`The branch "${input.request.ref}" and the space both changed ${named} since the last sync; nothing was exported and nothing was lost. Resolve it in one place (edit the space, or push to the branch), or export with "force" to write the space's version over the branch as a new commit.`);
    }
    const revisionId = await createRevision(tx, { spaceId: input.spaceId, type: 'merge', parents: [head, theirs], root: merged.root });
    await setSpaceHead(tx, input.spaceId, revisionId, { expected: head });
    return theirs;
  });
}

/** Exports the space's current content to the branch as one commit (none when nothing changed). */
export async function runExport(ctx: Context, operation: GitOperationRow, request: GitRequest, stage: (stage: GitStage) => Promise<void>, signal?: AbortSignal): Promise<OperationOutcome> {
  const spaceId = operation.space_id;
  const { gitDir, config, remote, tip } = await connect(ctx, spaceId, request, stage, signal);
  const sync = await findSync(ctx, spaceId);
  const sameRepository = sync && sync.url === request.url && sync.project_directory === request.projectDirectory;
  const sameRemote = sameRepository && sync.ref === request.ref;
  await stage('config_check');
  // A new branch of the repository last synced starts from the commit of that sync, so it keeps the
  // repository's layout and every file no edit touched, byte for byte (a branch made with `git branch`).
  const branchFrom = !tip && sameRepository && sync.last_commit && sync.last_revision_id && (await hasCommit(gitDir, sync.last_commit)) ? sync.last_commit : null;
  const parent = tip ?? branchFrom;
  const layout = sameRemote || (sameRepository && !tip) ? layoutOf(sync, request.projectDirectory) : tip ? await layoutAt(gitDir, tip, request.projectDirectory) : layoutOf(undefined, request.projectDirectory);
  await stage('content_process');
  let base: { commit: string | null; revisionId: string | undefined } = sameRemote
    ? { commit: sync.last_commit, revisionId: sync.last_revision_id ?? undefined }
    : branchFrom
      ? { commit: branchFrom, revisionId: sync!.last_revision_id ?? undefined }
      : { commit: tip, revisionId: tip ? await revisionAtCommit(ctx, spaceId, tip) : undefined };
  if (sameRemote && sync.last_commit && sync.last_revision_id && tip && tip !== sync.last_commit && !request.force) {
    // The branch moved since the last sync: its content is merged into the space first (three-way, the
    // last synced revision as base), so neither side's edits are lost; the export then builds on the tip.
    base = { commit: tip, revisionId: await mergeBranch(ctx, { spaceId, gitDir, tip, request, lastRevisionId: sync.last_revision_id, signal }) };
  }
  const space = await ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
  const head = (await findRevision(ctx, space.revision_id))!;
  const tree = await loadTree(ctx, head.root);
  const lastRevision = base.revisionId && base.commit === parent ? await findRevision(ctx, base.revisionId) : undefined;
  const last = lastRevision ? await loadTree(ctx, lastRevision.root) : null;
  const entries = parent ? await listTree(gitDir, parent) : [];
  const changes = await exportChanges(ctx, { tree, last, layout, tip: entries, gitDir });
  await stage('finalize');
  const automatic = request.automatic && !request.commitMessage ? await automaticMessage(ctx, spaceId, head.id, request.automatic.template) : undefined;
  const authorId = automatic?.authorId ?? operation.created_by;
  const author = authorId ? await ctx.db.selectFrom('users').select(['display_name', 'email']).where('id', '=', authorId).executeTakeFirst() : undefined;
  const message = request.commitMessage?.trim() || automatic?.message || 'Quire: No commit message';
  const commit = changes.length === 0 ? null : await writeCommit(gitDir, {
    parent,
    message: message.endsWith('\n') ? message : `${message}\n`,
    author: author ? { name: author.display_name, email: author.email } : QUIRE_COMMITTER,
    committer: QUIRE_COMMITTER,
    changes,
    time: Math.floor(ctx.clock.now().getTime() / 1000),
  });
  // A new branch with no edit is the commit it starts from.
  const pushed = commit ?? (tip ? null : branchFrom);
  if (pushed) await pushCommit(gitDir, remote.url, pushed, request.ref, config, signal);
  const synced = pushed ?? tip;
  await inTransaction(ctx, async (tx) => {
    if (commit) await setRevisionCommit(tx, head.id, { oid: commit, message: message.trim(), createdByGitBook: true, ref: request.ref, ...(commitUrl(request, commit) ? { url: commitUrl(request, commit) } : {}) });
    await recordSync(tx, spaceId, request, { commit: synced, revisionId: head.id, layout });
  });
  return { commit: synced, revisionId: head.id };
}

/**
 * Whether an automatic import of a two-way sync must go through the export instead: the space changed
 * since the last sync, so the branch's tip is merged into it (the three-way merge of `runExport`) and the
 * result pushed, rather than the tip laid over the space's unsynced edits.
 */
async function divergedBothWays(ctx: Context, spaceId: string, request: GitRequest): Promise<boolean> {
  if (request.automatic?.direction !== 'both') return false;
  const sync = await findSync(ctx, spaceId);
  if (!sync?.last_revision_id || sync.url !== request.url || sync.ref !== request.ref || sync.project_directory !== request.projectDirectory) return false;
  const space = await ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
  return space.revision_id !== sync.last_revision_id;
}

/** Whether the cached clone holds a commit. */
function hasCommit(gitDir: string, commit: string): Promise<boolean> {
  return git(['cat-file', '-e', `${commit}^{commit}`], { gitDir }).then(() => true, () => false);
}

/** The layout a branch's `.gitbook.yaml` names (the defaults without one), for an export to a branch never synced. */
async function layoutAt(gitDir: string, commit: string, projectDirectory: string): Promise<DocsLayout> {
  const at = `${projectDirectory ? `${projectDirectory}/` : ''}.gitbook.yaml`;
  const text = await gitText(['cat-file', '-p', `${commit}:${at}`], { gitDir }).then((out) => out, () => undefined);
  const config = readLayoutConfig(text);
  const root = posix.join(projectDirectory, config.root).replace(/^\.$/, '').replace(/^\/+|\/+$/g, '');
  return { root, readme: config.readme, summary: config.summary, ...(config.redirects ? { redirects: config.redirects } : {}) };
}

/** Runs an operation by id, recording its stages and outcome; an error is recorded, then thrown again. */
export async function runOperation(ctx: Context, operationId: string, signal?: AbortSignal, onStage?: (stage: GitStage) => void): Promise<OperationOutcome | null> {
  const operation = await findOperation(ctx, operationId);
  if (!operation || operation.state === 'success' || operation.state === 'failure') return null;
  const request = JSON.parse(operation.request) as GitRequest;
  const now = nowIso(ctx);
  await updateOperation(ctx, operationId, { state: 'running', started_at: now, stage: 'repo_fetch', error: null });
  await announce(ctx, operation);
  const stage = async (next: GitStage) => {
    await updateOperation(ctx, operationId, { stage: next });
    onStage?.(next);
  };
  try {
    const sync = await findSync(ctx, operation.space_id);
    if (request.timestamp && sync?.last_timestamp && request.timestamp < sync.last_timestamp && !request.force) {
      throw new BadRequest(`A later Git operation (of ${sync.last_timestamp}) already ran; this one (of ${request.timestamp}) was skipped. Use "force" to run it anyway.`);
    }
    let direction = operation.direction;
    if (direction === 'import' && (await divergedBothWays(ctx, operation.space_id, request))) {
      // The operations list tells what ran: the branch merged into the space, and the result exported.
      direction = 'export';
      await ctx.db.updateTable('git_operations').set({ direction }).where('id', '=', operationId).execute();
    }
    const outcome = direction === 'import' ? await runImport(ctx, operation, request, stage, signal) : await runExport(ctx, operation, request, stage, signal);
    await updateOperation(ctx, operationId, { state: 'success', commit: outcome.commit, revision_id: outcome.revisionId, completed_at: nowIso(ctx) });
    await announce(ctx, operation, 'success');
    return outcome;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await updateOperation(ctx, operationId, { state: 'failure', error: message.slice(0, 2000) });
    await announce(ctx, operation, 'failure');
    throw error;
  }
}

/** Tells the organization's listeners (webhooks) that a sync started, or how it ended. */
async function announce(ctx: Context, operation: { space_id: string; direction: string; created_by: string | null }, result?: 'success' | 'failure'): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const space = await tx.db.selectFrom('spaces').select('organization_id').where('id', '=', operation.space_id).executeTakeFirst();
    if (!space) return;
    const data = { organizationId: space.organization_id, actorId: operation.created_by, spaceId: operation.space_id, direction: operation.direction };
    if (result === undefined) await tx.events.emit(tx, 'git_sync.started', data);
    else await tx.events.emit(tx, 'git_sync.completed', { ...data, result });
  });
}
