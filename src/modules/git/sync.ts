import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { spaceAccess } from '../../access/spaces.ts';
import { Forbidden, NotFound, Unauthorized } from '../../errors.ts';
import { cancelScheduled, DEFAULT_COMMIT_TEMPLATE, findAutoSync, findAutoSyncById, pulls, schedulePoll, scheduleSync, type AutoSyncRow } from '../../git/auto.ts';
import type { SyncDirection } from '../../git/state.ts';
import { QUIRE_COMMITTER } from '../../git/run.ts';
import { normalizeProjectDirectory, normalizeRef, parseRemote } from '../../git/remote.ts';
import { findSync } from '../../git/state.ts';
import { checkRemoteAddress } from './service.ts';
import { isDeletion, readPush, verifyGitHub, verifyGitLab, type Provider } from '../../git/webhooks.ts';
import { authorize } from '../../policy/index.ts';
import type { GitSyncConfig, PutGitSyncBody } from './schemas.ts';

/**
 * Automatic Git Sync's API (src/git/auto.ts does the work): `PUT/GET/DELETE /v1/spaces/{spaceId}/git/sync`,
 * checked with the space's `triggerGitSync`, and the webhook endpoint `POST /v1/git/webhooks/{syncId}`,
 * which Git hosts call without a token and which trusts only the signature made with the sync's secret.
 */

function webhookUrl(ctx: Context, id: string): string {
  return `${ctx.config.publicUrl.replace(/\/+$/, '')}/v1/git/webhooks/${id}`;
}

/** A sync as the API shows it: never its credentials; its webhook secret only when just made. */
export function presentSync(ctx: Context, row: AutoSyncRow, secret?: string): GitSyncConfig {
  const out: GitSyncConfig = {
    id: row.id,
    url: row.url,
    hasCredentials: row.credentials !== null,
    ref: row.ref,
    projectDirectory: row.project_directory,
    direction: row.direction as SyncDirection,
    commitMessageTemplate: row.commit_template,
    pollIntervalSeconds: row.poll_interval_seconds,
    webhook: { url: webhookUrl(ctx, row.id), ...(secret ? { secret } : {}) },
    failures: row.failures,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.last_error) out.lastError = row.last_error;
  if (row.next_retry_at) out.nextRetryAt = row.next_retry_at;
  return out;
}

async function managed(tx: Context, spaceId: string) {
  const { space, actor } = await spaceAccess(tx, spaceId);
  authorize(tx, 'space.triggerGitSync', actor);
  return space;
}

/** PUT /spaces/{spaceId}/git/sync: creates or replaces the sync; a new webhook secret is answered once. */
export async function putGitSync(ctx: Context, spaceId: string, body: PutGitSyncBody): Promise<GitSyncConfig> {
  const remote = parseRemote(body.url);
  const ref = normalizeRef(body.ref);
  const projectDirectory = normalizeProjectDirectory(body.repoProjectDirectory);
  // Permission first (a stranger learns nothing of how a host resolves), then the address, outside the
  // transaction so that no write waits on a DNS answer; the transaction checks the permission again.
  await managed(ctx, spaceId);
  await checkRemoteAddress(ctx, remote.url);
  return inTransaction(ctx, async (tx) => {
    const space = await managed(tx, spaceId);
    const existing = await findAutoSync(tx, space.id);
    const now = nowIso(tx);
    const fresh = !existing || body.rotateWebhookSecret === true ? randomBytes(32).toString('base64url') : undefined;
    // The same remote given again without credentials keeps the ones stored.
    const credentials = remote.credentials !== null ? tx.secrets.encrypt(remote.credentials) : existing && existing.url === remote.url ? existing.credentials : null;
    const values = {
      url: remote.url,
      credentials,
      ref,
      project_directory: projectDirectory,
      direction: body.direction,
      commit_template: body.commitMessageTemplate?.trim() || DEFAULT_COMMIT_TEMPLATE,
      poll_interval_seconds: body.pollIntervalSeconds ?? null,
      updated_at: now,
      ...(fresh ? { webhook_secret: tx.secrets.encrypt(fresh) } : {}),
    };
    if (existing) await tx.db.updateTable('git_auto_syncs').set(values).where('id', '=', existing.id).execute();
    else {
      await tx.db
        .insertInto('git_auto_syncs')
        .values({ id: tx.ids.next(), space_id: space.id, webhook_secret: '', ...values, failures: 0, last_error: null, next_retry_at: null, created_by: tx.actor?.userId ?? null, created_at: now })
        .execute();
    }
    const row = (await findAutoSync(tx, space.id))!;
    await schedulePoll(tx, row);
    return presentSync(tx, row, fresh);
  });
}

/** GET /spaces/{spaceId}/git/sync */
export async function getGitSync(ctx: Context, spaceId: string): Promise<GitSyncConfig> {
  const space = await managed(ctx, spaceId);
  const row = await findAutoSync(ctx, space.id);
  if (!row) throw new NotFound(`The space "${spaceId}" has no automatic Git Sync; set one with PUT /v1/spaces/${spaceId}/git/sync.`);
  return presentSync(ctx, row);
}

/** DELETE /spaces/{spaceId}/git/sync: stops it (what it scheduled is dropped); answers whether there was one. */
export async function deleteGitSync(ctx: Context, spaceId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const space = await managed(tx, spaceId);
    const row = await findAutoSync(tx, space.id);
    if (!row) return false;
    await cancelScheduled(tx, row.id);
    await tx.db.deleteFrom('git_auto_syncs').where('id', '=', row.id).execute();
    return true;
  });
}

export interface WebhookAnswer {
  status: number;
  body: { result: 'queued' | 'ignored' | 'pong'; reason?: string };
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * POST /git/webhooks/{syncId}: a push event from GitHub or GitLab. Refused with 401 without a signature
 * (or token) and 403 with a wrong one; ignored (200) when it is not a push to the synced branch, when the
 * branch was deleted, when the sync does not pull, or when it is Quire's own push coming back; else an
 * import is scheduled (202).
 */
export async function receiveWebhook(ctx: Context, syncId: string, headers: Record<string, string | string[] | undefined>, raw: Buffer): Promise<WebhookAnswer> {
  const sync = await findAutoSyncById(ctx, syncId);
  if (!sync) throw new NotFound('There is no Git Sync with this webhook address; it may have been removed.');
  const signature = header(headers, 'x-hub-signature-256');
  const token = header(headers, 'x-gitlab-token');
  let provider: Provider;
  if (signature !== undefined) provider = 'github';
  else if (token !== undefined) provider = 'gitlab';
  else throw new Unauthorized('A Git Sync webhook must be signed: GitHub sends X-Hub-Signature-256, GitLab X-Gitlab-Token, made with the secret Quire gave when the sync was set.');
  const secret = ctx.secrets.decrypt(sync.webhook_secret).toString('utf8');
  const valid = provider === 'github' ? verifyGitHub(secret, raw, signature!) : verifyGitLab(secret, token!);
  if (!valid) throw new Forbidden(`The webhook's ${provider === 'github' ? 'signature (X-Hub-Signature-256)' : 'token (X-Gitlab-Token)'} does not match this sync's secret.`);
  const event = provider === 'github' ? header(headers, 'x-github-event') : header(headers, 'x-gitlab-event');
  if (provider === 'github' && event === 'ping') return { status: 200, body: { result: 'pong' } };
  const ignored = (reason: string): WebhookAnswer => ({ status: 200, body: { result: 'ignored', reason } });
  if (event !== undefined && event !== 'push' && event !== 'Push Hook') return ignored(`Not a push event ("${event.slice(0, 100)}").`);
  let body: unknown;
  try {
    // GitHub may send the JSON as the form field `payload` (content type application/x-www-form-urlencoded).
    const form = (header(headers, 'content-type') ?? '').startsWith('application/x-www-form-urlencoded');
    body = JSON.parse(form ? (new URLSearchParams(raw.toString('utf8')).get('payload') ?? '') : raw.toString('utf8'));
  } catch {
    return ignored('The body is not JSON.');
  }
  const push = readPush(body);
  if (!push) return ignored('Not a push event.');
  if (push.ref !== sync.ref) return ignored(`A push to ${push.ref.slice(0, 250)}, not to the synced ${sync.ref}.`);
  if (isDeletion(push.after)) return ignored('The branch was deleted; the space is kept as it is.');
  if (!pulls(sync.direction)) return ignored('This sync only pushes to Git.');
  const last = await findSync(ctx, sync.space_id);
  if (push.after === last?.last_commit || (push.committer?.name === QUIRE_COMMITTER.name && push.committer.email === QUIRE_COMMITTER.email)) {
    return ignored("Quire's own push.");
  }
  await inTransaction(ctx, (tx) => scheduleSync(tx, sync.id, 'import'));
  return { status: 202, body: { result: 'queued' } };
}
