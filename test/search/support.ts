import type { Context } from '../../src/context.ts';
import type { RevisionWriter, NewPage } from '../../src/content/writer.ts';
import { runDueJobs } from '../../src/jobs/index.ts';
import { scheduleSpaceIndex } from '../../src/search/changes.ts';
import { createSpaceWithPages, editContent, type SpaceOptions } from '../helpers/content-factory.ts';

/**
 * Content for search tests: the content factory writes revisions directly, so these also tell search
 * (as setCurrentRevision does in the app), and `indexNow` runs the job queue until nothing is due.
 */
export async function spaceWithPages(ctx: Context, organizationId: string, pages: NewPage[], options: SpaceOptions = {}): Promise<string> {
  const { spaceId } = await createSpaceWithPages(ctx, organizationId, pages, options);
  await scheduleSpaceIndex(ctx, spaceId);
  return spaceId;
}

export async function changeContent(ctx: Context, spaceId: string, edit: (writer: RevisionWriter) => void | Promise<void>): Promise<string> {
  const revisionId = await editContent(ctx, spaceId, edit);
  await scheduleSpaceIndex(ctx, spaceId);
  return revisionId;
}

/** Runs due jobs until none is left; returns how many ran. */
export async function indexNow(ctx: Context): Promise<number> {
  let ran = 0;
  for (;;) {
    const report = await runDueJobs(ctx, { workerId: 'search-test', onError: (error) => { throw error; } });
    if (report.claimed === 0) return ran;
    ran += report.claimed;
  }
}
