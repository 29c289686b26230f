import cliProgress from 'cli-progress';
import type { Context } from '../context.ts';
import { inTransaction } from '../context.ts';
import { assertEditable } from '../access/editable.ts';
import { NotFound } from '../errors.ts';
import { findAutoSync } from '../git/auto.ts';
import { runOperation } from '../git/run.ts';
import { createOperation, findOperation, findSync, GIT_STAGES, listOperations, operationAhead, type GitDirection, type GitStage } from '../git/state.ts';
import { presentOperation } from '../modules/git/presenter.ts';
import { requestOf } from '../modules/git/service.ts';
import { presentSync } from '../modules/git/sync.ts';

/**
 * `quire git import|export --space <id> --url <url> --ref refs/heads/<branch>`: the same Git operation as
 * the API's, recorded on `git/operations` like any other, but run here in the foreground as the operator
 * (no user: the commit's author is Quire), with a progress bar by stage on stderr (one line per stage when
 * stderr is not a terminal). It waits for an operation of the same space that is running or asked for
 * earlier. `quire git status --space <id>` prints the space's sync and its recent operations.
 */

export interface GitOperationCommand {
  direction: GitDirection;
  spaceId: string;
  url: string;
  ref: string;
  projectDirectory?: string;
  message?: string;
  force?: boolean;
  json: boolean;
}

const STAGE_TITLES: Record<GitStage, string> = {
  repo_fetch: 'fetching the repository',
  config_check: 'reading its layout',
  content_process: 'processing the content',
  finalize: 'writing the result',
};

async function waitForTurn(ctx: Context, operationId: string): Promise<void> {
  const limit = Date.now() + 30 * 60_000;
  for (;;) {
    const operation = await findOperation(ctx, operationId);
    if (!operation || !(await operationAhead(ctx, operation))) return;
    if (Date.now() > limit) throw new Error('Another Git operation of this space has been running for 30 minutes; this one is left pending for the server to run.');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Runs the command; returns the exit code (1 when the operation failed). */
export async function gitOperationCommand(ctx: Context, command: GitOperationCommand): Promise<number> {
  const body = {
    url: command.url,
    ref: command.ref,
    ...(command.projectDirectory ? { repoProjectDirectory: command.projectDirectory } : {}),
    ...(command.force ? { force: true } : {}),
    ...(command.direction === 'export' ? { commitMessage: command.message ?? 'Quire: export from the command line' } : {}),
  };
  const request = requestOf(ctx, body as Parameters<typeof requestOf>[1]);
  const operationId = await inTransaction(ctx, async (tx) => {
    const space = await tx.db.selectFrom('spaces').select(['id', 'edit_mode']).where('id', '=', command.spaceId).where('deleted_at', 'is', null).executeTakeFirst();
    if (!space) throw new NotFound(`There is no space "${command.spaceId}".`);
    if (command.direction === 'import') assertEditable(space);
    return createOperation(tx, space.id, command.direction, request);
  });
  await waitForTurn(ctx, operationId);
  const before = (await findSync(ctx, command.spaceId))?.last_commit ?? null;

  const tty = process.stderr.isTTY === true;
  const bar = tty ? new cliProgress.SingleBar({ stream: process.stderr, format: `Git ${command.direction} [{bar}] {value}/{total} {stage}`, hideCursor: true }, cliProgress.Presets.shades_classic) : null;
  bar?.start(GIT_STAGES.length, 0, { stage: '' });
  const onStage = (stage: GitStage) => {
    const index = GIT_STAGES.indexOf(stage);
    if (bar) bar.update(index, { stage: STAGE_TITLES[stage] });
    else process.stderr.write(`[${index + 1}/${GIT_STAGES.length}] ${stage}: ${STAGE_TITLES[stage]}\n`);
  };
  let failed: Error | null = null;
  try {
    await runOperation(ctx, operationId, undefined, onStage);
    bar?.update(GIT_STAGES.length, { stage: 'done' });
  } catch (error) {
    failed = error as Error;
  } finally {
    bar?.stop();
  }
  const operation = presentOperation((await findOperation(ctx, operationId))!);
  if (command.json) process.stdout.write(JSON.stringify(operation) + '\n');
  else if (failed) process.stderr.write(`quire: the Git ${command.direction} failed: ${operation.error ?? failed.message}\n`);
  else if (command.direction === 'import') {
    process.stdout.write(operation.revision ? `Imported ${operation.commit} into space ${command.spaceId}: revision ${operation.revision}.\n` : `Nothing to import: space ${command.spaceId} already holds ${operation.commit}.\n`);
  } else {
    process.stdout.write(operation.commit && operation.commit !== before ? `Exported space ${command.spaceId} to ${operation.url} ${operation.ref}: commit ${operation.commit}.\n` : `Nothing to export: the branch already holds the space's content${operation.commit ? ` (commit ${operation.commit})` : ''}.\n`);
  }
  return failed ? 1 : 0;
}

/** `quire git status --space <id>` */
export async function gitStatusCommand(ctx: Context, spaceId: string, json: boolean): Promise<number> {
  const space = await ctx.db.selectFrom('spaces').select('id').where('id', '=', spaceId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!space) throw new NotFound(`There is no space "${spaceId}".`);
  const [sync, auto, operations] = await Promise.all([findSync(ctx, spaceId), findAutoSync(ctx, spaceId), listOperations(ctx, spaceId, 10)]);
  const last = sync ? { url: sync.url, ref: sync.ref, projectDirectory: sync.project_directory, commit: sync.last_commit, revision: sync.last_revision_id, updatedAt: sync.updated_at } : null;
  const automatic = auto ? presentSync(ctx, auto) : null;
  const items = operations.map(presentOperation);
  if (json) {
    process.stdout.write(JSON.stringify({ space: spaceId, lastSync: last, automatic, operations: items }) + '\n');
    return 0;
  }
  const lines: string[] = [];
  lines.push(last ? `Last sync: ${last.url} ${last.ref}${last.projectDirectory ? ` (${last.projectDirectory})` : ''} at commit ${last.commit ?? '(none)'}, revision ${last.revision}, ${last.updatedAt}.` : 'Never synced with Git.');
  if (automatic) {
    lines.push(`Automatic sync: ${automatic.direction} with ${automatic.url} ${automatic.ref}${automatic.pollIntervalSeconds ? `, polled every ${automatic.pollIntervalSeconds} s` : ''}; webhook ${automatic.webhook.url}.`);
    if (automatic.failures > 0) lines.push(`  ${automatic.failures} failure(s) in a row; next attempt at ${automatic.nextRetryAt}: ${automatic.lastError}`);
  } else lines.push('No automatic sync.');
  lines.push(items.length ? 'Recent operations:' : 'No operations yet.');
  for (const item of items) lines.push(`  ${item.createdAt} ${item.direction} ${item.state} (${item.stage})${item.commit ? ` ${item.commit.slice(0, 12)}` : ''}${item.error ? ` — ${item.error}` : ''}`);
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}
