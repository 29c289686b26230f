import type { Context } from '../../src/context.ts';
import { nowIso } from '../../src/context.ts';
import { forkRevision } from '../../src/content/revisions.ts';
import { RevisionWriter } from '../../src/content/writer.ts';
import { currentRevision } from './content-factory.ts';

/**
 * Change requests for the comment tests, written straight into the database: a change request row over a
 * fork of the space's current revision (no content copied), and edits to its head.
 */
export interface ChangeRequestFixture {
  id: string;
  number: number;
}

export async function createChangeRequestRow(ctx: Context, spaceId: string, createdBy: string | null = null): Promise<ChangeRequestFixture> {
  const base = await currentRevision(ctx, spaceId);
  const head = await forkRevision(ctx, base, spaceId);
  const space = await ctx.db.selectFrom('spaces').select('change_request_seq').where('id', '=', spaceId).executeTakeFirstOrThrow();
  const number = space.change_request_seq + 1;
  await ctx.db.updateTable('spaces').set({ change_request_seq: number }).where('id', '=', spaceId).execute();
  const id = ctx.ids.next();
  const now = nowIso(ctx);
  await ctx.db
    .insertInto('change_requests')
    .values({
      id,
      space_id: spaceId,
      number,
      subject: `Change ${number}`,
      status: 'open',
      revision_initial: base,
      revision: head,
      revision_merged_ancestor: base,
      revision_merged: null,
      agent_task_id: null,
      comments: 0,
      created_by: createdBy,
      created_at: now,
      updated_at: now,
      merged_at: null,
      merged_by: null,
    })
    .execute();
  return { id, number };
}

/** Writes a new head for a change request through `edit`; returns the new revision's id. */
export async function editChangeRequest(ctx: Context, changeRequestId: string, edit: (writer: RevisionWriter) => void | Promise<void>): Promise<string> {
  const row = await ctx.db.selectFrom('change_requests').select(['space_id', 'revision']).where('id', '=', changeRequestId).executeTakeFirstOrThrow();
  const writer = await RevisionWriter.fromRevision(ctx, row.revision);
  await edit(writer);
  const { revisionId } = await writer.commit(ctx, { spaceId: row.space_id, type: 'edits', parents: [row.revision] });
  await ctx.db.updateTable('change_requests').set({ revision: revisionId }).where('id', '=', changeRequestId).execute();
  return revisionId;
}

/** The open-comment counters of a space and (optionally) a change request, as stored. */
export async function commentCounters(ctx: Context, spaceId: string, changeRequestId?: string): Promise<{ space: number; changeRequest?: number }> {
  const space = await ctx.db.selectFrom('spaces').select('comments').where('id', '=', spaceId).executeTakeFirstOrThrow();
  if (!changeRequestId) return { space: space.comments };
  const changeRequest = await ctx.db.selectFrom('change_requests').select('comments').where('id', '=', changeRequestId).executeTakeFirstOrThrow();
  return { space: space.comments, changeRequest: changeRequest.comments };
}
