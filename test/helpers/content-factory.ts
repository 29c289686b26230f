import type { Context } from '../../src/context.ts';
import { nowIso } from '../../src/context.ts';
import { storeBlob } from '../../src/content/files.ts';
import { createInitialRevision } from '../../src/content/revisions.ts';
import { RevisionWriter, type NewPage } from '../../src/content/writer.ts';

/**
 * Spaces with content, built without the spaces API: a space row with its first (empty) revision, then
 * revisions written through the content writer, exactly as templates and imports write them.
 */
export interface SpaceOptions {
  title?: string;
  visibility?: 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';
  editMode?: 'live' | 'locked';
  /** 'inherit', a member role, or 'none'. */
  defaultLevel?: string;
  collectionId?: string | null;
  createdBy?: string | null;
}

export async function createSpace(ctx: Context, organizationId: string, options: SpaceOptions = {}): Promise<string> {
  const id = ctx.ids.next();
  const revisionId = await createInitialRevision(ctx, id);
  const now = nowIso(ctx);
  await ctx.db
    .insertInto('spaces')
    .values({
      id,
      organization_id: organizationId,
      collection_id: options.collectionId ?? null,
      title: options.title ?? 'Docs',
      emoji: null,
      icon: null,
      visibility: options.visibility ?? 'private',
      edit_mode: options.editMode ?? 'live',
      default_level: options.defaultLevel ?? 'inherit',
      language: null,
      revision_id: revisionId,
      position: 0,
      comments: 0,
      change_requests: 0,
      change_requests_open: 0,
      change_requests_draft: 0,
      created_by: options.createdBy ?? null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .execute();
  return id;
}

export async function currentRevision(ctx: Context, spaceId: string): Promise<string> {
  return (await ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow()).revision_id;
}

/** Writes a new revision of a space from its current one through `edit`, and makes it current; returns its id. */
export async function editContent(ctx: Context, spaceId: string, edit: (writer: RevisionWriter) => void | Promise<void>): Promise<string> {
  const parent = await currentRevision(ctx, spaceId);
  const writer = await RevisionWriter.fromRevision(ctx, parent);
  await edit(writer);
  const { revisionId } = await writer.commit(ctx, { spaceId, type: 'edits', parents: [parent] });
  await ctx.db.updateTable('spaces').set({ revision_id: revisionId }).where('id', '=', spaceId).execute();
  return revisionId;
}

/** Stores bytes and adds them to the writer as a file; returns the file id. */
export async function addFile(ctx: Context, writer: RevisionWriter, file: { name: string; contentType: string; bytes: Buffer | string; id?: string; dimensions?: { width: number; height: number } }): Promise<string> {
  const { blob, size } = await storeBlob(ctx, Buffer.isBuffer(file.bytes) ? file.bytes : Buffer.from(file.bytes));
  return writer.addFile({ id: file.id, name: file.name, contentType: file.contentType, blob, size, ...(file.dimensions ? { dimensions: file.dimensions } : {}) });
}

/** A space holding `pages`, written as one revision after the empty first one. */
export async function createSpaceWithPages(ctx: Context, organizationId: string, pages: NewPage[], options: SpaceOptions = {}): Promise<{ spaceId: string; revisionId: string }> {
  const spaceId = await createSpace(ctx, organizationId, options);
  const revisionId = await editContent(ctx, spaceId, (writer) => {
    for (const page of pages) writer.addPage(page);
  });
  return { spaceId, revisionId };
}

/**
 * `count` document pages in a realistic shape: sections of 20 pages at the top, each with 4 children of
 * 4 children where the count allows (three levels deep), every page with a short body.
 */
export function manyPages(count: number): NewPage[] {
  const pages: NewPage[] = [];
  let made = 0;
  const page = (title: string): NewPage => ({ type: 'document', title, markdown: `# ${title}\n\nThe body of ${title}, number ${made}.\n` });
  while (made < count) {
    const top = page(`Section ${made}`);
    made++;
    top.pages = [];
    for (let i = 0; i < 4 && made < count; i++) {
      const child = page(`Topic ${made}`);
      made++;
      child.pages = [];
      for (let j = 0; j < 4 && made < count; j++) {
        child.pages.push(page(`Detail ${made}`));
        made++;
      }
      top.pages.push(child);
    }
    pages.push(top);
  }
  return pages;
}
