import type { Selectable } from 'kysely';
import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';
import type { GitOperationsTable, GitSyncsTable } from '../db/tables/git.ts';
import { DEFAULT_LAYOUT, type DocsLayout } from './files.ts';
import { repoName } from './remote.ts';

/**
 * What Quire remembers of a space's Git Sync: the remote and branch (`git_syncs`), the operations run
 * (`git_operations`), the commit of a revision (`revisions.git`) and the state `Space.gitSync` shows
 * (`spaces.git_sync`).
 */

export type GitSyncRow = Selectable<GitSyncsTable>;
export type GitOperationRow = Selectable<GitOperationsTable>;

export const GIT_DIRECTIONS = ['import', 'export'] as const;
export type GitDirection = (typeof GIT_DIRECTIONS)[number];
export const GIT_STAGES = ['repo_fetch', 'config_check', 'content_process', 'finalize'] as const;
export type GitStage = (typeof GIT_STAGES)[number];

export const SYNC_DIRECTIONS = ['push', 'pull', 'both'] as const;
export type SyncDirection = (typeof SYNC_DIRECTIONS)[number];

/** Where a sync's automatic operation is in the request an operation stores (src/git/auto.ts). */
export interface AutomaticRequest {
  syncId: string;
  template: string;
  direction: SyncDirection;
}

/** The request of an operation, as stored: the URL without credentials, the credentials sealed. */
export interface GitRequest {
  url: string;
  /** `user:password`, sealed with the SecretBox; absent without credentials. */
  sealedCredentials?: string;
  ref: string;
  projectDirectory: string;
  repoCacheID?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  timestamp?: string;
  force: boolean;
  standalone: boolean;
  commitMessage?: string;
  provider?: 'github' | 'gitlab';
  /** Set on the operations an automatic sync started (src/git/auto.ts). */
  automatic?: AutomaticRequest;
}

/** The commit of a revision, as the client's `GitSyncCommit` shows it. */
export interface GitCommitInfo {
  oid: string;
  message: string;
  createdByGitBook: boolean;
  url?: string;
  ref?: string;
}

/** `Space.gitSync` / `GET git/info`: the client's `GitSyncState`. */
export interface GitSyncInfo {
  repoName?: string;
  installationProvider?: 'github' | 'gitlab' | 'github-legacy';
  integration?: string;
  url?: string;
  updatedAt?: string;
}

export async function findSync(ctx: Pick<Context, 'db'>, spaceId: string): Promise<GitSyncRow | undefined> {
  return ctx.db.selectFrom('git_syncs').selectAll().where('space_id', '=', spaceId).executeTakeFirst();
}

export function layoutOf(sync: GitSyncRow | undefined, projectDirectory: string): DocsLayout {
  if (sync?.layout && sync.project_directory === projectDirectory) return JSON.parse(sync.layout) as DocsLayout;
  return { ...DEFAULT_LAYOUT, root: projectDirectory };
}

/** Records the pair last known equal, and the remote, after a successful operation (in its transaction). */
export async function recordSync(
  ctx: Context,
  spaceId: string,
  request: GitRequest,
  pair: { commit: string | null; revisionId: string; layout: DocsLayout },
): Promise<void> {
  const now = nowIso(ctx);
  const values = {
    url: request.url,
    credentials: request.sealedCredentials ?? null,
    ref: request.ref,
    project_directory: request.projectDirectory,
    layout: JSON.stringify(pair.layout),
    repo_cache_id: request.repoCacheID ?? null,
    tree_url: request.repoTreeURL ?? null,
    commit_url: request.repoCommitURL ?? null,
    provider: request.provider ?? null,
    last_commit: pair.commit,
    last_revision_id: pair.revisionId,
    last_timestamp: request.timestamp ?? null,
    updated_at: now,
  };
  await ctx.db
    .insertInto('git_syncs')
    .values({ space_id: spaceId, created_at: now, ...values })
    .onConflict((oc) => oc.column('space_id').doUpdateSet(values))
    .execute();
  const info: GitSyncInfo = { repoName: repoName(request.url), url: request.repoTreeURL ?? request.url, updatedAt: now };
  if (request.provider) info.installationProvider = request.provider;
  await ctx.db.updateTable('spaces').set({ git_sync: JSON.stringify(info) }).where('id', '=', spaceId).execute();
}

/** Sets the commit of a revision (mutable metadata). */
export async function setRevisionCommit(ctx: Pick<Context, 'db'>, revisionId: string, commit: GitCommitInfo): Promise<void> {
  await ctx.db.updateTable('revisions').set({ git: JSON.stringify(commit) }).where('id', '=', revisionId).execute();
}

/** The latest revision of a space that was read from or exported to `commit`, if any. */
export async function revisionAtCommit(ctx: Pick<Context, 'db'>, spaceId: string, commit: string): Promise<string | undefined> {
  const rows = await ctx.db.selectFrom('revisions').select(['id', 'git']).where('space_id', '=', spaceId).where('git', 'like', `%"oid":"${commit.replace(/[^0-9a-f]/g, '')}"%`).orderBy('created_at', 'desc').execute();
  return rows.find((row) => row.git && (JSON.parse(row.git) as GitCommitInfo).oid === commit)?.id;
}

/** `Space.gitSync` from the space's row. */
export function spaceGitSync(stored: string | null): GitSyncInfo | undefined {
  return stored ? (JSON.parse(stored) as GitSyncInfo) : undefined;
}

/** Forgets a space's sync configuration (the legacy installation); answers whether there was one. */
export async function removeSync(ctx: Pick<Context, 'db'>, spaceId: string): Promise<boolean> {
  const result = await ctx.db.deleteFrom('git_syncs').where('space_id', '=', spaceId).executeTakeFirst();
  const space = await ctx.db.updateTable('spaces').set({ git_sync: null }).where('id', '=', spaceId).where('git_sync', 'is not', null).executeTakeFirst();
  return Number(result.numDeletedRows) > 0 || Number(space.numUpdatedRows) > 0;
}

export async function createOperation(ctx: Context, spaceId: string, direction: GitDirection, request: GitRequest): Promise<string> {
  const id = ctx.ids.next();
  const now = nowIso(ctx);
  await ctx.db
    .insertInto('git_operations')
    .values({ id, space_id: spaceId, direction, state: 'pending', stage: 'repo_fetch', request: JSON.stringify(request), commit: null, revision_id: null, error: null, created_by: ctx.actor?.userId ?? null, created_at: now, started_at: null, updated_at: now, completed_at: null })
    .execute();
  return id;
}

export async function findOperation(ctx: Pick<Context, 'db'>, id: string): Promise<GitOperationRow | undefined> {
  return ctx.db.selectFrom('git_operations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateOperation(ctx: Pick<Context, 'db' | 'clock'>, id: string, patch: Partial<Pick<GitOperationRow, 'state' | 'stage' | 'commit' | 'revision_id' | 'error' | 'started_at' | 'completed_at'>>): Promise<void> {
  await ctx.db.updateTable('git_operations').set({ ...patch, updated_at: nowIso(ctx) }).where('id', '=', id).execute();
}

/** The recent operations of a space, newest first. */
export async function listOperations(ctx: Pick<Context, 'db'>, spaceId: string, limit: number): Promise<GitOperationRow[]> {
  return ctx.db.selectFrom('git_operations').selectAll().where('space_id', '=', spaceId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** An operation of the same space that must run first: one running, or one pending that was asked for earlier. */
export async function operationAhead(ctx: Pick<Context, 'db'>, operation: GitOperationRow): Promise<GitOperationRow | undefined> {
  return ctx.db
    .selectFrom('git_operations')
    .selectAll()
    .where('space_id', '=', operation.space_id)
    .where('id', '!=', operation.id)
    .where((eb) => eb.or([eb('state', '=', 'running'), eb.and([eb('state', '=', 'pending'), eb.or([eb('created_at', '<', operation.created_at), eb.and([eb('created_at', '=', operation.created_at), eb('id', '<', operation.id)])])])]))
    .executeTakeFirst();
}
