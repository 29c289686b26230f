import type { Context } from '../../src/context.ts';
import { inTransaction } from '../../src/context.ts';
import { setSpaceHead } from '../../src/content/head.ts';
import { RevisionWriter } from '../../src/content/writer.ts';
import { runDueJobs } from '../../src/jobs/index.ts';
import type { ManualClock } from '../../src/clock.ts';
import { currentRevision } from '../helpers/content-factory.ts';

/**
 * Edits a space as the app does: a new revision from the current one, made current through the space
 * head, so subscribers (translations among them) learn of it in the same transaction.
 */
export async function editSpace(ctx: Context, spaceId: string, edit: (writer: RevisionWriter) => void | Promise<void>): Promise<string> {
  return inTransaction(ctx, async (tx) => {
    const parent = await currentRevision(tx, spaceId);
    const writer = await RevisionWriter.fromRevision(tx, parent);
    await edit(writer);
    const { revisionId } = await writer.commit(tx, { spaceId, type: 'edits', parents: [parent] });
    await setSpaceHead(tx, spaceId, revisionId, { expected: parent });
    return revisionId;
  });
}

/** Moves the clock past the debounce and runs the job queue until nothing is due; answers the failures. */
export async function runJobs(ctx: Context, clock: ManualClock): Promise<string[]> {
  const failures: string[] = [];
  clock.advance(60_000);
  for (;;) {
    const report = await runDueJobs(ctx, { workerId: 'translation-test', onError: (error) => failures.push(error instanceof Error ? error.message : String(error)) });
    if (report.claimed === 0) return failures;
  }
}
