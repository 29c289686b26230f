import { sweepUploads, uploadRootBlobs } from '../storage/uploads.ts';
import type { Context } from '../context.ts';
import { inTransaction } from '../context.ts';
import { enqueue, type QueueContext } from '../jobs/queue.ts';
import type { JobRun } from '../jobs/types.ts';
import { collectGarbageJob } from './gc-job.ts';
import { decodeNode } from './nodes.ts';
import type { RevisionRoot } from './revisions.ts';
import { sweepLinkFacts } from './link-analysis/store.ts';
import { sweepLinkAnalyses } from './link-analysis/saved.ts';

/**
 * Garbage collection of the content store: mark and sweep with a grace period (docs/architecture.md,
 * "Garbage collection").
 *
 * Mark: the revisions that anything refers to — the head of every space (deleted ones too, while in the
 * trash), every revision a change request names, the last revision of a Git sync and of each Git operation,
 * each translation's result, the revisions reviews were made against, and every revision younger than the
 * grace — with their whole history (parents, transitively). Then every object their roots reach (pages,
 * bodies, reusable contents) and every blob their files name, plus the blobs of the PDF cache.
 *
 * Sweep: what is not marked and is older than the grace: revisions created before it, objects and blob
 * rows not touched within it. A writer touches every object and blob it stores or reuses, in the statement
 * that stores it (src/content/objects.ts, src/content/files.ts), and each delete re-checks the time in its
 * own statement, so a write that starts using an old object during the sweep either touched it first (the
 * delete skips it; on PostgreSQL it waits for the writer's row lock and then sees the new time) or comes
 * after the delete (its insert stores the object again). A blob's row and its bytes go in one transaction.
 * What was derived from a body and kept by its hash (link facts), or from a revision and kept by its root
 * hash (link analyses), goes once that object is gone and the row is older than the grace.
 */

const CHUNK = 200;

export interface GcReport {
  dryRun: boolean;
  /** Content older than this (ISO) and unreachable is collected. */
  cutoff: string;
  reachable: { revisions: number; objects: number; blobs: number };
  removed: { revisions: number; objects: number; blobs: number; blobBytes: number };
  /** Rows derived from objects that are gone: the link facts stored by body hash, the link analyses by root hash. */
  derived: { linkFacts: number; linkAnalyses: number; uploads: number };
}

type GcContext = Context;

/** The revision ids something refers to directly. */
async function referencedRevisions(ctx: GcContext, cutoff: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const add = (rows: Array<Record<string, string | null>>) => {
    for (const row of rows) for (const value of Object.values(row)) if (value) ids.add(value);
  };
  add(await ctx.db.selectFrom('spaces').select('revision_id').execute());
  add(await ctx.db.selectFrom('change_requests').select(['revision_initial', 'revision', 'revision_merged_ancestor', 'revision_merged']).execute());
  add(await ctx.db.selectFrom('git_syncs').select('last_revision_id').execute());
  add(await ctx.db.selectFrom('git_operations').select('revision_id').execute());
  add(await ctx.db.selectFrom('translations').select('result_revision_id').execute());
  add(await ctx.db.selectFrom('change_request_reviewers').select('revision').execute());
  add(await ctx.db.selectFrom('change_request_reviews').select('revision').execute());
  // A revision younger than the grace may belong to a write still under way (not attached yet).
  add(await ctx.db.selectFrom('revisions').select('id').where('created_at', '>=', cutoff).execute());
  return ids;
}

interface Marked {
  revisions: Set<string>;
  objects: Set<string>;
  blobs: Set<string>;
  /** Every revision with its creation time, for the sweep. */
  all: Map<string, { root: string; created_at: string }>;
}

/** The mark phase: what is reachable now. */
async function mark(ctx: GcContext, cutoff: string): Promise<Marked> {
  const all = new Map<string, { root: string; created_at: string; parents: string }>();
  for (const row of await ctx.db.selectFrom('revisions').select(['id', 'root', 'created_at', 'parents']).execute()) all.set(row.id, row);

  const revisions = new Set<string>();
  const stack = [...(await referencedRevisions(ctx, cutoff))];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (revisions.has(id)) continue;
    const revision = all.get(id);
    if (!revision) continue; // a reference to a revision that is gone: nothing to keep
    revisions.add(id);
    for (const parent of JSON.parse(revision.parents) as string[]) if (!revisions.has(parent)) stack.push(parent);
  }

  const objects = new Set<string>();
  const blobs = new Set<string>();
  const roots = [...new Set([...revisions].map((id) => all.get(id)!.root))];
  let pages: string[] = [];
  for (let i = 0; i < roots.length; i += CHUNK) {
    const rows = await ctx.db.selectFrom('content_objects').select(['hash', 'data']).where('hash', 'in', roots.slice(i, i + CHUNK)).execute();
    for (const row of rows) {
      objects.add(row.hash);
      const root = JSON.parse(row.data) as RevisionRoot;
      pages.push(...root.pages);
      for (const file of root.files) blobs.add(file.blob);
      for (const content of root.reusableContents as Array<{ body?: unknown }>) if (typeof content?.body === 'string') objects.add(content.body);
    }
  }
  // Page nodes level by level; a node marked already has its whole subtree marked (shared subtrees are
  // read once, however many revisions hold them).
  while (pages.length > 0) {
    const wanted = [...new Set(pages)].filter((hash) => !objects.has(hash));
    pages = [];
    for (let i = 0; i < wanted.length; i += CHUNK) {
      const rows = await ctx.db.selectFrom('content_objects').select(['hash', 'data']).where('hash', 'in', wanted.slice(i, i + CHUNK)).execute();
      for (const row of rows) {
        objects.add(row.hash);
        const node = decodeNode(row.data);
        if (node.body) objects.add(node.body);
        pages.push(...node.children);
      }
    }
  }
  for (const row of await ctx.db.selectFrom('pdf_exports').select('blob').execute()) blobs.add(row.blob);
  // Uploaded files (custom fonts): a font that names one keeps it; an upload not yet used, for the grace.
  for (const blob of await uploadRootBlobs(ctx, cutoff)) blobs.add(blob);
  return { revisions, objects, blobs, all };
}

/**
 * Collects the content no revision, change request, translation or Git sync can reach any more and that
 * is older than the grace (config.gcGraceMs). With `dryRun`, only counts what would go.
 */
export interface GcOptions {
  dryRun?: boolean;
  /** Runs between the mark and the sweep (tests put a racing write there). */
  afterMark?: () => Promise<void>;
}

export async function collectGarbage(ctx: GcContext, options: GcOptions = {}): Promise<GcReport> {
  const dryRun = options.dryRun === true;
  const cutoff = new Date(ctx.clock.now().getTime() - ctx.config.gcGraceMs).toISOString();
  const marked = await mark(ctx, cutoff);
  await options.afterMark?.();
  const report: GcReport = {
    dryRun,
    cutoff,
    reachable: { revisions: marked.revisions.size, objects: marked.objects.size, blobs: marked.blobs.size },
    removed: { revisions: 0, objects: 0, blobs: 0, blobBytes: 0 },
    derived: { linkFacts: 0, linkAnalyses: 0, uploads: 0 },
  };

  // Revisions first: a revision's root is a foreign key, and an object goes only when no revision names it.
  const revisions = [...marked.all].filter(([id, revision]) => !marked.revisions.has(id) && revision.created_at < cutoff).map(([id]) => id);
  for (let i = 0; i < revisions.length; i += CHUNK) {
    const chunk = revisions.slice(i, i + CHUNK);
    if (dryRun) {
      report.removed.revisions += chunk.length;
      continue;
    }
    const result = await ctx.db
      .deleteFrom('revisions')
      .where('id', 'in', chunk)
      .where('created_at', '<', cutoff)
      // Re-checked in the statement: a head or a change request that moved onto it since the mark keeps it.
      .where((eb) => eb.not(eb.exists(eb.selectFrom('spaces').select('spaces.id').whereRef('spaces.revision_id', '=', 'revisions.id'))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('change_requests').select('change_requests.id').whereRef('change_requests.revision', '=', 'revisions.id'))))
      .executeTakeFirst();
    report.removed.revisions += Number(result.numDeletedRows);
  }

  const staleObjects = await ctx.db
    .selectFrom('content_objects')
    .select('hash')
    .where((eb) => eb.or([eb('touched_at', 'is', null), eb('touched_at', '<', cutoff)]))
    .execute();
  const objects = staleObjects.map((row) => row.hash).filter((hash) => !marked.objects.has(hash));
  for (let i = 0; i < objects.length; i += CHUNK) {
    const chunk = objects.slice(i, i + CHUNK);
    if (dryRun) {
      report.removed.objects += chunk.length;
      continue;
    }
    const result = await ctx.db
      .deleteFrom('content_objects')
      .where('hash', 'in', chunk)
      .where((eb) => eb.or([eb('touched_at', 'is', null), eb('touched_at', '<', cutoff)]))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('revisions').select('revisions.id').whereRef('revisions.root', '=', 'content_objects.hash'))))
      .executeTakeFirst();
    report.removed.objects += Number(result.numDeletedRows);
  }
  report.derived.linkFacts = await sweepLinkFacts(ctx, cutoff, objects, dryRun);
  report.derived.linkAnalyses = await sweepLinkAnalyses(ctx, cutoff, objects, dryRun);
  report.derived.uploads = await sweepUploads(ctx, cutoff, dryRun);

  const staleBlobs = await ctx.db
    .selectFrom('content_blobs')
    .select(['hash', 'size'])
    .where((eb) => eb.or([eb('touched_at', '<', cutoff), eb.and([eb('touched_at', 'is', null), eb('created_at', '<', cutoff)])]))
    .execute();
  const blobs = staleBlobs.filter((row) => !marked.blobs.has(row.hash));
  for (let i = 0; i < blobs.length; i += CHUNK) {
    const chunk = blobs.slice(i, i + CHUNK);
    if (dryRun) {
      report.removed.blobs += chunk.length;
      report.removed.blobBytes += chunk.reduce((sum, row) => sum + Number(row.size), 0);
      continue;
    }
    // The row and the bytes in one transaction: a writer's touch of the row waits for it (PostgreSQL) or runs
    // before or after it (SQLite), and a writer touches the row before it relies on the bytes being there.
    await inTransaction(ctx, async (tx) => {
      const deleted = await tx.db
        .deleteFrom('content_blobs')
        .where('hash', 'in', chunk.map((row) => row.hash))
        .where((eb) => eb.or([eb('touched_at', '<', cutoff), eb.and([eb('touched_at', 'is', null), eb('created_at', '<', cutoff)])]))
        .returning(['hash', 'size'])
        .execute();
      for (const row of deleted) {
        await tx.blobs.remove(row.hash);
        report.removed.blobs++;
        report.removed.blobBytes += Number(row.size);
      }
    });
  }
  return report;
}

/** The scheduled collection: runs every QUIRE_GC_INTERVAL_HOURS, rescheduling itself (one pending job stands for the schedule). */
export const runContentGc: JobRun<Record<string, never>> = async (ctx) => {
  await collectGarbage(ctx);
  if (ctx.config.gcIntervalHours === 0) return;
  return { rescheduleAt: new Date(ctx.clock.now().getTime() + ctx.config.gcIntervalHours * 3_600_000) };
};

/**
 * Starts the schedule at a serving process's start, one interval from now, unless a collection is pending or
 * running already (so restarts do not keep pushing it back); nothing when turned off.
 */
export async function scheduleGarbageCollection(ctx: QueueContext & Pick<Context, 'config'>): Promise<void> {
  if (ctx.config.gcIntervalHours === 0) return;
  const scheduled = await ctx.db.selectFrom('jobs').select('id').where('singleton_key', '=', collectGarbageJob.kind).where('status', 'in', ['pending', 'running']).executeTakeFirst();
  if (scheduled) return;
  await enqueue(ctx, collectGarbageJob, {}, { runAt: new Date(ctx.clock.now().getTime() + ctx.config.gcIntervalHours * 3_600_000) });
}
