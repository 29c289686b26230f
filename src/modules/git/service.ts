import type { Context } from '../../context.ts';
import { inTransaction } from '../../context.ts';
import { spaceAccess, type SpaceRow } from '../../access/spaces.ts';
import { assertEditable } from '../../access/editable.ts';
import { NotFound } from '../../errors.ts';
import { gitOperationJob } from '../../git/operation-job.ts';
import { checkDestination } from '../../net/addresses.ts';
import { normalizeProjectDirectory, normalizeRef, parseRemote } from '../../git/remote.ts';
import { createOperation, listOperations, removeSync, spaceGitSync, type GitDirection, type GitOperationRow, type GitRequest, type GitSyncInfo } from '../../git/state.ts';
import { enqueue } from '../../jobs/index.ts';
import { authorize } from '../../policy/index.ts';
import type { ExportGitBody, ImportGitBody } from './schemas.ts';

/**
 * Git Sync requests: each import or export is checked (the caller's `triggerGitSync` permission, the
 * remote's scheme, the ref, the project folder) and recorded as an operation whose job is enqueued in the
 * same transaction; the work runs in the job queue (src/git/). The credentials a URL carries are split off
 * at once and kept sealed.
 */

/** The stored request of an import or export (also `quire git`, src/cli/git.ts). */
export function requestOf(ctx: Context, body: ImportGitBody | ExportGitBody): GitRequest {
  const remote = parseRemote(body.url);
  const request: GitRequest = {
    url: remote.url,
    ref: normalizeRef(body.ref),
    projectDirectory: normalizeProjectDirectory(body.repoProjectDirectory),
    force: body.force ?? false,
    standalone: 'standalone' in body ? (body.standalone ?? false) : false,
  };
  if (remote.credentials !== null) request.sealedCredentials = ctx.secrets.encrypt(remote.credentials);
  if (body.repoCacheID) request.repoCacheID = body.repoCacheID;
  if (body.repoTreeURL) request.repoTreeURL = body.repoTreeURL;
  if (body.repoCommitURL) request.repoCommitURL = body.repoCommitURL;
  if (body.timestamp) request.timestamp = new Date(body.timestamp).toISOString();
  if (body.gitInfo?.provider) request.provider = body.gitInfo.provider;
  if (body.gitInfo?.url && !request.repoTreeURL) request.repoTreeURL = body.gitInfo.url;
  if ('commitMessage' in body) request.commitMessage = body.commitMessage;
  return request;
}

/**
 * The outbound address guard on a remote when it is given, as webhooks have it: a remote that leads to a
 * private address is refused with a 400 at once rather than accepted and failed later in its job. The job
 * checks again when it connects (`remoteConfig`), since a name may resolve elsewhere by then.
 */
export async function checkRemoteAddress(ctx: Pick<Context, 'config'>, url: string): Promise<void> {
  await checkDestination(new URL(url), { allowPrivate: ctx.config.importAllowPrivate, what: 'Git remote' });
}

async function requestOperation(ctx: Context, spaceId: string, direction: GitDirection, body: ImportGitBody | ExportGitBody): Promise<string> {
  const request = requestOf(ctx, body);
  // Permission first (a stranger learns nothing of how a host resolves), then the address, outside the
  // transaction so that no write waits on a DNS answer; the transaction checks the permission again.
  authorize(ctx, 'space.triggerGitSync', (await spaceAccess(ctx, spaceId)).actor);
  await checkRemoteAddress(ctx, request.url);
  return inTransaction(ctx, async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.triggerGitSync', actor);
    // An import moves the space; a standalone import (a preview) and an export do not.
    if (direction === 'import' && !request.standalone) assertEditable(space);
    const operationId = await createOperation(tx, space.id, direction, request);
    await enqueue(tx, gitOperationJob, { operationId });
    return operationId;
  });
}

/** POST /spaces/{spaceId}/git/import */
export function requestGitImport(ctx: Context, spaceId: string, body: ImportGitBody): Promise<string> {
  return requestOperation(ctx, spaceId, 'import', body);
}

/** POST /spaces/{spaceId}/git/export */
export function requestGitExport(ctx: Context, spaceId: string, body: ExportGitBody): Promise<string> {
  return requestOperation(ctx, spaceId, 'export', body);
}

async function readable(ctx: Context, spaceId: string): Promise<SpaceRow> {
  const { space, actor } = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', actor);
  return space;
}

/** GET /spaces/{spaceId}/git/info: 404 before any sync. */
export async function getGitInfo(ctx: Context, spaceId: string): Promise<GitSyncInfo> {
  const space = await readable(ctx, spaceId);
  const info = spaceGitSync(space.git_sync);
  if (!info) throw new NotFound(`The space "${spaceId}" is not synced with a Git repository yet; import from or export to one first.`);
  return info;
}

/** DELETE /spaces/{spaceId}/git/legacy-installation: forgets the sync configuration; answers whether there was one. */
export async function removeGitInstallation(ctx: Context, spaceId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.triggerGitSync', actor);
    return removeSync(tx, space.id);
  });
}

/** GET /spaces/{spaceId}/git/operations: the recent operations, newest first. */
export async function listGitOperations(ctx: Context, spaceId: string, limit: number): Promise<GitOperationRow[]> {
  const space = await readable(ctx, spaceId);
  return listOperations(ctx, space.id, limit);
}
