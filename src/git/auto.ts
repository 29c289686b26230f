import type { Selectable } from 'kysely';
import type { Context } from '../context.ts';
import { inTransaction, nowIso } from '../context.ts';
import type { GitAutoSyncsTable } from '../db/tables/git.ts';
import type { DomainEventListener } from '../event-bus.ts';
import type { SpaceContentChanged } from '../events.ts';
import { cancelPending, enqueue, type QueueContext } from '../jobs/queue.ts';
import type { JobRun } from '../jobs/types.ts';
import { git } from './cli.ts';
import { gitOperationJob } from './operation-job.ts';
import { gitPollJob, pollKey, type PollPayload } from './poll-job.ts';
import { remoteConfig } from './remote.ts';
import { remoteError } from './repository.ts';
import { createOperation, findSync, type AutomaticRequest, type GitDirection, type GitOperationRow, type GitRequest, type SyncDirection } from './state.ts';
import { gitSyncJob, syncKey, type SyncJobPayload } from './sync-job.ts';

/**
 * Automatic Git Sync: a space and a branch kept in step without anyone asking.
 *
 * - Quire → Git: every new current revision that did not come from Git (an edit, a merge, an import, a
 *   template) schedules an export (`exportOnContentChange`, subscribed to `space-content-changed` in
 *   src/services.ts, in the change's own transaction).
 * - Git → Quire: a push event on the webhook (src/modules/git/webhooks.ts), or polling (`git-poll`, for
 *   remotes that cannot call webhooks), schedules an import.
 * - Scheduling is a `git-sync` job per sync and direction (a singleton: many edits make one export), which
 *   records a Git operation and enqueues it like any other, so the rule "one operation per space, in order"
 *   holds. A failed automatic operation schedules its own retry with exponential backoff (30 s doubling,
 *   at most an hour) and is reported on its row, on the sync (`failures`, `lastError`, `nextRetryAt`) and to
 *   the organization's webhooks (`git_sync.completed` with `failure`); it never stops for good.
 */

export type AutoSyncRow = Selectable<GitAutoSyncsTable>;

/** The message of an automatic export after a change request's merge, as GitBook writes it. */
export const DEFAULT_COMMIT_TEMPLATE = 'GITBOOK-{number}: {subject}';

const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 60 * 60 * 1000;

/** The wait before the next attempt after `failures` consecutive failures: 30 s, 1 min, 2 min, … at most 1 hour. */
export function retryDelayMs(failures: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
}

export function pushes(direction: string): boolean {
  return direction === 'push' || direction === 'both';
}

export function pulls(direction: string): boolean {
  return direction === 'pull' || direction === 'both';
}

export async function findAutoSync(ctx: Pick<Context, 'db'>, spaceId: string): Promise<AutoSyncRow | undefined> {
  return ctx.db.selectFrom('git_auto_syncs').selectAll().where('space_id', '=', spaceId).executeTakeFirst();
}

export async function findAutoSyncById(ctx: Pick<Context, 'db'>, id: string): Promise<AutoSyncRow | undefined> {
  return ctx.db.selectFrom('git_auto_syncs').selectAll().where('id', '=', id).executeTakeFirst();
}

type Scheduler = QueueContext;

/**
 * Schedules an automatic operation of a sync (in the caller's transaction). One pending job per sync and
 * direction: a later trigger joins it; a due trigger brings a retry that waits forward, and a retry never
 * pushes back a trigger that is due sooner.
 */
export async function scheduleSync(ctx: Scheduler, syncId: string, direction: GitDirection, runAt?: Date): Promise<void> {
  const key = syncKey(syncId, direction);
  if (runAt) {
    const pending = await ctx.db.selectFrom('jobs').select('run_at').where('singleton_key', '=', key).where('status', '=', 'pending').executeTakeFirst();
    if (pending && pending.run_at <= runAt.toISOString()) return;
  }
  await enqueue(ctx, gitSyncJob, { syncId, direction }, { singletonKey: key, runAt });
}

/** Starts (or restarts) a sync's polling; the job reschedules itself and ends once polling is off. */
export async function schedulePoll(ctx: Scheduler, sync: Pick<AutoSyncRow, 'id' | 'poll_interval_seconds'>): Promise<void> {
  if (!sync.poll_interval_seconds) {
    await cancelPending(ctx, pollKey(sync.id));
    return;
  }
  await enqueue(ctx, gitPollJob, { syncId: sync.id }, { singletonKey: pollKey(sync.id), runAt: new Date(ctx.clock.now().getTime() + sync.poll_interval_seconds * 1000) });
}

/** Drops what a removed sync had scheduled (a running job finds the sync gone and stops). */
export async function cancelScheduled(ctx: Pick<Context, 'db'>, syncId: string): Promise<void> {
  for (const key of [syncKey(syncId, 'import'), syncKey(syncId, 'export'), pollKey(syncId)]) await cancelPending(ctx, key);
}

/** The stored request of an automatic operation of `sync`. */
export function automaticRequest(sync: AutoSyncRow): GitRequest {
  const request: GitRequest = { url: sync.url, ref: sync.ref, projectDirectory: sync.project_directory, force: false, standalone: false };
  if (sync.credentials) request.sealedCredentials = sync.credentials;
  request.automatic = { syncId: sync.id, template: sync.commit_template, direction: sync.direction as SyncDirection };
  return request;
}

/** The automatic part of an operation's request, when it was started by a sync. */
export function automaticOf(operation: Pick<GitOperationRow, 'request'>): AutomaticRequest | undefined {
  return (JSON.parse(operation.request) as GitRequest).automatic;
}

/**
 * `git-sync`: records the automatic operation of a sync and enqueues it. A sync that was removed, or whose
 * direction no longer asks for it, does nothing; an automatic operation of the same direction that has not
 * started yet already covers this trigger (it reads the space and the branch when it runs).
 */
export const runGitSync: JobRun<SyncJobPayload> = async (ctx, payload) => {
  await inTransaction(ctx, async (tx) => {
    const sync = await findAutoSyncById(tx, payload.syncId);
    if (!sync) return;
    if (payload.direction === 'export' ? !pushes(sync.direction) : !pulls(sync.direction)) return;
    const waiting = await tx.db
      .selectFrom('git_operations')
      .select(['id', 'request'])
      .where('space_id', '=', sync.space_id)
      .where('direction', '=', payload.direction)
      .where('state', '=', 'pending')
      .execute();
    if (waiting.some((row) => automaticOf(row)?.syncId === sync.id)) return;
    const operationId = await createOperation(tx, sync.space_id, payload.direction, automaticRequest(sync));
    await enqueue(tx, gitOperationJob, { operationId });
  });
};

/** The commit a branch of the remote points at (`git ls-remote`), or null when it does not exist. */
export async function remoteTip(ctx: Context, sync: AutoSyncRow): Promise<string | null> {
  const credentials = sync.credentials ? ctx.secrets.decrypt(sync.credentials).toString('utf8') : null;
  const config = await remoteConfig({ url: sync.url, credentials }, { allowPrivate: ctx.config.importAllowPrivate });
  let out: string;
  try {
    out = (await git(['ls-remote', '--', sync.url, sync.ref], { config })).toString('utf8');
  } catch (error) {
    throw remoteError(error, sync.url);
  }
  const line = out.split('\n').find((l) => l.endsWith(`\t${sync.ref}`));
  return line ? line.split('\t')[0] : null;
}

/**
 * `git-poll`: asks the remote where the branch is (one `ls-remote`, no fetch) and schedules an import when
 * it moved since the last sync; then waits for the next interval. An unreachable remote is reported on the
 * sync and polled again at the next interval.
 */
export const runGitPoll: JobRun<PollPayload> = async (ctx, payload) => {
  const sync = await findAutoSyncById(ctx, payload.syncId);
  if (!sync?.poll_interval_seconds) return;
  const next = new Date(ctx.clock.now().getTime() + sync.poll_interval_seconds * 1000);
  if (!pulls(sync.direction)) return { rescheduleAt: next };
  try {
    const tip = await remoteTip(ctx, sync);
    const last = await findSync(ctx, sync.space_id);
    if (tip && tip !== last?.last_commit) await scheduleSync(ctx, sync.id, 'import');
  } catch (error) {
    await ctx.db
      .updateTable('git_auto_syncs')
      .set({ last_error: `Polling the remote failed: ${(error as Error).message}`.slice(0, 2000), updated_at: nowIso(ctx) })
      .where('id', '=', sync.id)
      .execute();
  }
  return { rescheduleAt: next };
};

/**
 * After an automatic operation ran: a success clears the sync's failures; a failure counts one more and
 * schedules the retry with backoff (a sync never stops for good; the next trigger may come sooner).
 */
export async function afterAutomatic(ctx: Context, operationId: string): Promise<void> {
  const operation = await ctx.db.selectFrom('git_operations').selectAll().where('id', '=', operationId).executeTakeFirst();
  const automatic = operation ? automaticOf(operation) : undefined;
  if (!operation || !automatic) return;
  await inTransaction(ctx, async (tx) => {
    const sync = await findAutoSyncById(tx, automatic.syncId);
    if (!sync) return;
    if (operation.state === 'success') {
      await tx.db.updateTable('git_auto_syncs').set({ failures: 0, last_error: null, next_retry_at: null, updated_at: nowIso(tx) }).where('id', '=', sync.id).execute();
      return;
    }
    if (operation.state !== 'failure') return;
    const failures = sync.failures + 1;
    const at = new Date(tx.clock.now().getTime() + retryDelayMs(failures));
    await tx.db
      .updateTable('git_auto_syncs')
      .set({ failures, last_error: operation.error, next_retry_at: at.toISOString(), updated_at: nowIso(tx) })
      .where('id', '=', sync.id)
      .execute();
    await scheduleSync(tx, sync.id, operation.direction as GitDirection, at);
  });
}

/** Whether a revision came from Git (an import, or the branch merged in by an export), so exporting it would echo. */
async function cameFromGit(ctx: Pick<Context, 'db'>, revisionId: string): Promise<boolean> {
  const revision = await ctx.db.selectFrom('revisions').select(['git', 'type', 'parents']).where('id', '=', revisionId).executeTakeFirst();
  if (!revision) return false;
  const fromGit = (text: string | null) => (text ? (JSON.parse(text) as { createdByGitBook?: boolean }).createdByGitBook === false : false);
  if (fromGit(revision.git)) return true;
  if (revision.type !== 'merge') return false;
  // An export's merge of the branch (src/git/run.ts mergeBranch) has the branch's tip, read as a revision,
  // as its second parent; a change request's merge has the change request's revision there.
  const theirs = parentIds(revision.parents)[1];
  if (!theirs) return false;
  const row = await ctx.db.selectFrom('revisions').select('git').where('id', '=', theirs).executeTakeFirst();
  return fromGit(row?.git ?? null);
}

function parentIds(stored: unknown): string[] {
  if (Array.isArray(stored)) return stored as string[];
  if (typeof stored === 'string') {
    try {
      const parsed = JSON.parse(stored) as unknown;
      return Array.isArray(parsed) ? (parsed as string[]) : [];
    } catch {
      return [];
    }
  }
  return [];
}

/** Git Sync's subscription to `space-content-changed`: a new revision not from Git is exported by itself. */
export const exportOnContentChange: DomainEventListener<SpaceContentChanged> = async (tx, event) => {
  const sync = await tx.db.selectFrom('git_auto_syncs').select(['id', 'direction']).where('space_id', '=', event.spaceId).executeTakeFirst();
  if (!sync || !pushes(sync.direction)) return;
  if (await cameFromGit(tx, event.revisionId)) return;
  await scheduleSync(tx, sync.id, 'export');
};

/**
 * The message of an automatic export of `revisionId`: the template (`GITBOOK-{number}: {subject}` by
 * default) when it is a change request's merge, else a sentence that says what kind of change it was.
 */
export async function automaticMessage(ctx: Pick<Context, 'db'>, spaceId: string, revisionId: string, template: string): Promise<{ message: string; authorId: string | null }> {
  const merged = await ctx.db
    .selectFrom('change_requests')
    .select(['number', 'subject', 'merged_by'])
    .where('space_id', '=', spaceId)
    .where('revision_merged', '=', revisionId)
    .executeTakeFirst();
  if (merged) {
    const subject = merged.subject?.trim() || 'No subject';
    return { message: template.replaceAll('{number}', String(merged.number)).replaceAll('{subject}', subject), authorId: merged.merged_by };
  }
  const revision = await ctx.db.selectFrom('revisions').select(['type', 'created_by']).where('id', '=', revisionId).executeTakeFirst();
  const what = revision?.type === 'merge' ? 'merged changes' : revision?.type === 'rollback' ? 'a rollback' : 'edits';
  // The author is who made the revision, when a person did (else Quire).
  return { message: `Quire: ${what} (revision ${revisionId})`, authorId: revision?.created_by ?? null };
}
