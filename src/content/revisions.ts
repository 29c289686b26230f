import type { Kysely } from 'kysely';
import type { Context } from '../context.ts';
import { preparedQuery } from '../db/prepared.ts';
import { memoized } from '../db/memo.ts';
import type { DB } from '../db/types.ts';
import { nowIso } from '../context.ts';
import { putObject } from './objects.ts';
import { canonicalJson } from './canonical-json.ts';

export { canonicalJson };

export const REVISION_TYPES = ['edits', 'merge', 'rollback', 'update', 'computed'] as const;
export type RevisionType = (typeof REVISION_TYPES)[number];

/**
 * The root object of a revision: the hashes of its top-level page nodes, its files, reusable contents and
 * variables. Page nodes (kind 'page') hold their own children's hashes, so a revision is a Merkle tree: an
 * edit writes the changed page, its ancestors and a new root, and shares everything else.
 */
export interface RevisionRoot {
  pages: string[];
  files: StoredFile[];
  reusableContents: unknown[];
  variables: Record<string, unknown>;
}

/** A file of a revision; the bytes are in blob storage under `blob` (SHA-256). */
export interface StoredFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  blob: string;
  dimensions?: { width: number; height: number };
  /** Where the file came from in a Git repository ("mutable metadata"). */
  git?: { oid: string; path: string };
}

export const EMPTY_ROOT: RevisionRoot = { pages: [], files: [], reusableContents: [], variables: {} };

/** Writes a root object; returns its hash. JSON is written with sorted keys so equal roots hash equally. */
export async function putRoot(ctx: Pick<Context, 'db'>, root: RevisionRoot): Promise<string> {
  return putObject(ctx, 'root', canonicalJson(root));
}

export interface NewRevision {
  spaceId: string;
  type: RevisionType;
  parents: string[];
  root: string;
}

/** Records a revision over an existing root object; returns its id. */
export async function createRevision(ctx: Context, input: NewRevision): Promise<string> {
  const id = ctx.ids.next();
  await ctx.db
    .insertInto('revisions')
    .values({
      id,
      space_id: input.spaceId,
      type: input.type,
      parents: JSON.stringify(input.parents),
      root: input.root,
      created_by: ctx.actor?.userId ?? null,
      created_at: nowIso(ctx),
    })
    .execute();
  return id;
}

/** The first revision of a new, empty space. */
export async function createInitialRevision(ctx: Context, spaceId: string): Promise<string> {
  const root = await putRoot(ctx, EMPTY_ROOT);
  return createRevision(ctx, { spaceId, type: 'edits', parents: [], root });
}

/**
 * A revision for `spaceId` with exactly the content of `revisionId`: one row, no content copied, whatever
 * the size of the space (duplicating a space, starting a change request).
 */
export async function forkRevision(ctx: Context, revisionId: string, spaceId: string): Promise<string> {
  const source = await ctx.db.selectFrom('revisions').select('root').where('id', '=', revisionId).executeTakeFirstOrThrow();
  return createRevision(ctx, { spaceId, type: 'edits', parents: [revisionId], root: source.root });
}

/** A revision as services read it. */
export interface RevisionRecord {
  id: string;
  spaceId: string;
  type: RevisionType;
  parents: string[];
  root: string;
  createdBy: string | null;
  createdAt: string;
  /** The Git commit the revision came from or was exported as (mutable metadata, src/git/). */
  git?: { oid: string; message: string; createdByGitBook: boolean; url?: string; ref?: string };
}

/** Read on every content request (the space's head): from memory until a revision row is written (src/db/memo.ts). */
const revisionById = memoized(preparedQuery((db: Kysely<DB>, id: string) =>
  db.selectFrom('revisions').select(['id', 'space_id', 'type', 'parents', 'root', 'created_by', 'created_at', 'git']).where('id', '=', id),
));

/** A revision by id (one prepared query), or undefined. */
export async function findRevision(ctx: Pick<Context, 'db' | 'dialect'>, revisionId: string): Promise<RevisionRecord | undefined> {
  const [row] = await revisionById(ctx, revisionId);
  if (!row) return undefined;
  return {
    id: row.id,
    spaceId: row.space_id,
    type: row.type as RevisionType,
    parents: JSON.parse(row.parents) as string[],
    root: row.root,
    createdBy: row.created_by,
    createdAt: row.created_at,
    ...(row.git ? { git: JSON.parse(row.git) as RevisionRecord['git'] } : {}),
  };
}
