import type { Context } from '../context.ts';
import { inTransaction, nowIso } from '../context.ts';
import { getObjects } from '../content/objects.ts';
import { cachedTree, loadTree, walkPages, type RevisionTree } from '../content/tree.ts';
import type { SearchPagesTable } from '../db/tables/search.ts';
import { searchDialect } from './engine.ts';
import { pauseForEventLoop } from '../workers/pool.ts';
import { cleanText, EMPTY_TEXT, readPageBodies } from './page-text.ts';
import { storeWrittenFacts } from '../content/link-analysis/store.ts';
import type { WrittenFacts } from '../content/link-analysis/written.ts';

/**
 * Keeps a space's search index in step with its current revision, incrementally: pages are compared with
 * what is indexed by id, title, path and body hash, and only the pages that differ are written, the pages
 * that are gone removed. Text already indexed for a body (in any space) is reused, so a duplicated space
 * or a moved page costs no Markdown parsing. Runs in the `index-space` job (src/search/index-job.ts).
 *
 * Safe to run twice at once for one space (two workers on PostgreSQL): the writes happen in one
 * transaction that first locks the space's index row, then re-reads the current revision and what is
 * indexed, so the last writer always writes the latest revision and never goes back to an older one.
 */

export interface IndexReport {
  /** The root hash now indexed; null when the space no longer exists. */
  rootHash: string | null;
  /** Pages written (new or changed). */
  written: number;
  removed: number;
}

/** Counts, for tests and measurements: bodies parsed and bodies whose text was reused. */
export const indexStats = { parsed: 0, reused: 0 };

interface WantedPage {
  title: string;
  path: string;
  bodyHash: string;
}

type IndexedText = Pick<SearchPagesTable, 'headings' | 'body' | 'sections'>;


/** The root hash of the space's current revision; null when there is no such space. */
export async function currentRoot(ctx: Pick<Context, 'db'>, spaceId: string): Promise<string | null> {
  const row = await ctx.db
    .selectFrom('spaces')
    .innerJoin('revisions', 'revisions.id', 'spaces.revision_id')
    .select('revisions.root')
    .where('spaces.id', '=', spaceId)
    .executeTakeFirst();
  return row?.root ?? null;
}

/** What `indexablePages` made of each tree still in memory (a tree never changes: its pages are read once). */
const indexable = new WeakMap<RevisionTree, Map<string, WantedPage>>();

/**
 * Items (pages, rows, ids) a loop of the indexer goes through between pauses for the event loop: on SQLite
 * nothing else gives the loop a turn (a query answers at once), and a space may hold 50,000 pages.
 */
const PAUSE_EVERY = 2_000;

/** The pages search finds: documents, except those marked `noIndex`. */
async function indexablePages(tree: RevisionTree): Promise<Map<string, WantedPage>> {
  const known = indexable.get(tree);
  if (known) return known;
  const pages = new Map<string, WantedPage>();
  let walked = 0;
  for (const page of walkPages(tree.pages)) {
    if (++walked % PAUSE_EVERY === 0) await pauseForEventLoop();
    const { node } = page;
    if (node.type !== 'document' || node.noIndex || page.path === null) continue;
    pages.set(node.id, { title: cleanText(node.title), path: page.path, bodyHash: node.body ?? '' });
  }
  indexable.set(tree, pages);
  return pages;
}

/** What a run writes and removes, made against the rows the index held for `indexedRoot`. */
interface Plan {
  changed: string[];
  removed: string[];
  indexedRoot: string | undefined;
}

/** The pages to write (new or changed) and to remove, with pauses for the event loop. */
async function plan(wanted: Map<string, WantedPage>, have: Map<string, WantedPage>): Promise<{ changed: string[]; removed: string[] }> {
  const changed: string[] = [];
  const removed: string[] = [];
  let compared = 0;
  for (const [id, page] of wanted) {
    if (++compared % PAUSE_EVERY === 0) await pauseForEventLoop();
    const row = have.get(id);
    if (!(row && row.title === page.title && row.path === page.path && row.bodyHash === page.bodyHash)) changed.push(id);
  }
  for (const id of have.keys()) {
    if (++compared % PAUSE_EVERY === 0) await pauseForEventLoop();
    if (!wanted.has(id)) removed.push(id);
  }
  return { changed, removed };
}

/**
 * What the index of the space holds now, page by page. The rows of a space indexed for a root are exactly
 * the indexable pages of that root's tree (`write` records the root in the transaction that makes the rows
 * so), and that tree is usually in memory: a new revision that changed one page of 10,000 then costs a walk
 * of two trees, not a read of 10,000 rows. Without a recorded root (never indexed), or when its tree is not
 * in memory (reading it would cost more than the rows), the rows are read.
 */
async function indexedPages(ctx: Pick<Context, 'db' | 'dialect'>, spaceId: string, indexedRoot: string | null | undefined): Promise<Map<string, WantedPage>> {
  const tree = indexedRoot ? cachedTree(indexedRoot) : undefined;
  if (tree) return await indexablePages(tree);
  const rows = await ctx.db.selectFrom('search_pages').select(['page_id', 'title', 'path', 'body_hash']).where('space_id', '=', spaceId).execute();
  return new Map(rows.map((row) => [row.page_id, { title: row.title, path: row.path, bodyHash: row.body_hash }]));
}

async function indexedRootOf(ctx: Pick<Context, 'db'>, spaceId: string): Promise<string | undefined> {
  return (await ctx.db.selectFrom('search_spaces').select('root_hash').where('space_id', '=', spaceId).executeTakeFirst())?.root_hash;
}

/**
 * Adds to `texts` the text of every body in `hashes` it lacks: reused from the index, else parsed. A body
 * parsed here also gives its link facts as written (the same reading), stored for the link analysis.
 */
async function readTexts(ctx: Pick<Context, 'db' | 'dialect' | 'clock'>, hashes: string[], texts: Map<string, IndexedText>): Promise<void> {
  const wanted = [...new Set(hashes)].filter((hash) => hash !== '' && !texts.has(hash));
  const dialect = searchDialect(ctx.dialect);
  for (let i = 0; i < wanted.length; i += 500) {
    if (i > 0) await pauseForEventLoop();
    for (const row of await dialect.textsByBody(ctx.db, wanted.slice(i, i + 500))) {
      texts.set(row.body_hash, { headings: row.headings, body: row.body, sections: row.sections });
      indexStats.reused++;
    }
  }
  const unread = wanted.filter((hash) => !texts.has(hash));
  for (let i = 0; i < unread.length; i += 200) {
    const bodies = [...(await getObjects(ctx, unread.slice(i, i + 200)))];
    // Parsing is the costly part: on the worker pool, so requests keep answering while a large space is read.
    const read = await readPageBodies(bodies.map(([, markdown]) => markdown));
    const linkFacts = new Map<string, WrittenFacts>();
    bodies.forEach(([hash], j) => {
      const { text, facts } = read[j];
      texts.set(hash, { headings: text.headings, body: text.body, sections: JSON.stringify(text.sections) });
      linkFacts.set(hash, facts);
      indexStats.parsed++;
    });
    await storeWrittenFacts(ctx, linkFacts, nowIso(ctx));
  }
}

const emptyText: IndexedText = { headings: EMPTY_TEXT.headings, body: EMPTY_TEXT.body, sections: JSON.stringify(EMPTY_TEXT.sections) };

/**
 * Rows written (or removed) per transaction. A large change (an import of 50,000 pages) is written in several
 * short transactions, so that it never holds the database long: on SQLite every request shares one
 * connection, and `/readyz` waited seconds for one transaction of 50,000 rows.
 */
export const WRITE_CHUNK = 500;

/**
 * Characters of text written per transaction, at most (a single larger page is written alone): rows of long
 * pages fill a transaction long before WRITE_CHUNK rows, and SQLite's one connection is held for its
 * whole length.
 */
export const WRITE_CHUNK_CHARS = 4_000_000;

/** The characters a page's row holds. */
function rowSize(page: WantedPage, texts: Map<string, IndexedText>): number {
  const text = page.bodyHash === '' ? emptyText : texts.get(page.bodyHash)!;
  return page.title.length + page.path.length + text.headings.length + text.body.length + text.sections.length;
}

/** The longest start of `ids` (at least one) whose rows hold at most WRITE_CHUNK_CHARS characters. */
function takeWithin(ids: string[], size: (id: string) => number): string[] {
  let total = 0;
  let count = 0;
  while (count < ids.length) {
    total += size(ids[count]);
    if (count > 0 && total > WRITE_CHUNK_CHARS) break;
    count++;
  }
  return ids.slice(0, count);
}

/** Counts, for tests: transactions the index writes took, and the writes in several transactions under way now. */
export const writeStats = { transactions: 0, chunkedWrites: 0 };

/** One page of rows to write and ids to remove, under the space's index lock; null when the space moved on meanwhile. */
async function writeStep(
  ctx: Context,
  spaceId: string,
  root: string,
  step: (tx: Context, now: string) => Promise<void>,
): Promise<'written' | 'gone' | 'moved'> {
  writeStats.transactions++;
  return inTransaction(ctx, async (tx) => {
    const now = nowIso(tx);
    await tx.db
      .insertInto('search_spaces')
      .columns(['space_id', 'root_hash', 'indexed_at'])
      .expression(tx.db.selectFrom('spaces').select((eb) => ['id', eb.val('').as('root_hash'), eb.val(now).as('indexed_at')]).where('id', '=', spaceId))
      .onConflict((oc) => oc.column('space_id').doNothing())
      .execute();
    await searchDialect(tx.dialect).lockSpace(tx.db, spaceId);
    const current = await currentRoot(tx, spaceId);
    if (current !== root) return current === null ? 'gone' : 'moved';
    await step(tx, now);
    return 'written';
  });
}

/**
 * Writes the index of `spaceId` for `root`; null when the space moved on meanwhile. A change of at most
 * WRITE_CHUNK rows is one transaction. A larger one is several: the first marks the space's index as
 * matching no root (root_hash ''), so that until the last records `root`, a reader of the index (and the
 * next run, after a failure) reads the rows as they are instead of trusting a tree; each checks under the
 * lock that the space is still at `root`. Search meanwhile finds the pages written so far, as it finds the
 * old ones until an index is written at all: the index follows the content, it never holds it back.
 */
async function write(ctx: Context, spaceId: string, root: string, wanted: Map<string, WantedPage>, texts: Map<string, IndexedText>, outside: Plan): Promise<IndexReport | null> {
  let changed: string[] = [];
  let removed: string[] = [];
  const rowsOf = (ids: string[], now: string): SearchPagesTable[] =>
    ids.map((id) => {
      const page = wanted.get(id)!;
      const text = page.bodyHash === '' ? emptyText : texts.get(page.bodyHash)!;
      return { space_id: spaceId, page_id: id, title: page.title, path: page.path, body_hash: page.bodyHash, ...text, indexed_at: now };
    });
  const upsert = async (tx: Context, rows: SearchPagesTable[]) => {
    await upsertRows(tx, rows);
    await searchDialect(tx.dialect).writeTitleTerms?.(tx.db, spaceId, rows.map((row) => row.page_id));
  };
  const upsertRows = async (tx: Context, rows: SearchPagesTable[]) => {
    for (let i = 0; i < rows.length; i += 100) {
      await tx.db
        .insertInto('search_pages')
        .values(rows.slice(i, i + 100))
        .onConflict((oc) =>
          oc.columns(['space_id', 'page_id']).doUpdateSet((eb) => ({
            title: eb.ref('excluded.title'),
            path: eb.ref('excluded.path'),
            headings: eb.ref('excluded.headings'),
            body: eb.ref('excluded.body'),
            body_hash: eb.ref('excluded.body_hash'),
            sections: eb.ref('excluded.sections'),
            indexed_at: eb.ref('excluded.indexed_at'),
          })),
        )
        .execute();
    }
  };
  const remove = async (tx: Context, ids: string[]) => {
    for (let i = 0; i < ids.length; i += 500) {
      await tx.db.deleteFrom('search_pages').where('space_id', '=', spaceId).where('page_id', 'in', ids.slice(i, i + 500)).execute();
    }
  };
  const finish = (tx: Context, now: string) => tx.db.updateTable('search_spaces').set({ root_hash: root, indexed_at: now }).where('space_id', '=', spaceId).execute();

  let chunked = false;
  const first = await writeStep(ctx, spaceId, root, async (tx, now) => {
    // The plan made before the transaction holds when the index still records the root it was made
    // against: rows recorded for a root are exactly that root's pages (any change of the rows first marks
    // the index as matching no root). Else it is made again here, under the lock.
    const recorded = await indexedRootOf(tx, spaceId);
    ({ changed, removed } = recorded && recorded === outside.indexedRoot ? outside : await plan(wanted, await indexedPages(tx, spaceId, recorded)));
    if (changed.length + removed.length <= WRITE_CHUNK) {
      await readTexts(tx, changed.map((id) => wanted.get(id)!.bodyHash), texts);
      await upsert(tx, rowsOf(changed, now));
      await remove(tx, removed);
      await finish(tx, now);
      return;
    }
    chunked = true;
    await tx.db.updateTable('search_spaces').set({ root_hash: '', indexed_at: now }).where('space_id', '=', spaceId).execute();
  });
  if (first !== 'written') return first === 'gone' ? { rootHash: null, written: 0, removed: 0 } : null;
  if (chunked) writeStats.chunkedWrites++;
  try {
    if (chunked) return await writeChunks();
  } finally {
    if (chunked) writeStats.chunkedWrites--;
  }
  return { rootHash: root, written: changed.length, removed: removed.length };

  async function writeChunks(): Promise<IndexReport | null> {
    for (let at = 0; at < changed.length; ) {
      // Between two transactions the event loop answers what waits (on SQLite nothing else gives it a turn).
      await pauseForEventLoop();
      // Texts the run read before the plan changed are read here, outside the transaction.
      const next = changed.slice(at, at + WRITE_CHUNK);
      await readTexts(ctx, next.map((id) => wanted.get(id)!.bodyHash), texts);
      const ids = takeWithin(next, (id) => rowSize(wanted.get(id)!, texts));
      at += ids.length;
      const step = await writeStep(ctx, spaceId, root, (tx, now) => upsert(tx, rowsOf(ids, now)));
      if (step !== 'written') return step === 'gone' ? { rootHash: null, written: 0, removed: 0 } : null;
    }
    for (let at = 0; at < removed.length; at += WRITE_CHUNK) {
      const ids = removed.slice(at, at + WRITE_CHUNK);
      await pauseForEventLoop();
      const step = await writeStep(ctx, spaceId, root, (tx) => remove(tx, ids));
      if (step !== 'written') return step === 'gone' ? { rootHash: null, written: 0, removed: 0 } : null;
    }
    const last = await writeStep(ctx, spaceId, root, async (tx, now) => {
      await finish(tx, now);
    });
    if (last !== 'written') return last === 'gone' ? { rootHash: null, written: 0, removed: 0 } : null;
    return { rootHash: root, written: changed.length, removed: removed.length };
  }
}

/** Brings the search index of a space up to its current revision; see the top of this file. */
export async function indexSpace(ctx: Context, spaceId: string): Promise<IndexReport> {
  const texts = new Map<string, IndexedText>();
  for (let round = 0; round < 5; round++) {
    const root = await currentRoot(ctx, spaceId);
    // A space that is gone took its index along (on delete cascade).
    if (root === null) return { rootHash: null, written: 0, removed: 0 };
    const indexedRoot = await indexedRootOf(ctx, spaceId);
    if (indexedRoot === root) return { rootHash: root, written: 0, removed: 0 };
    const wanted = await indexablePages(await loadTree(ctx, root));
    // Read (and parse) outside the transaction, so that the write holds the database as briefly as it can.
    const outside: Plan = { ...(await plan(wanted, await indexedPages(ctx, spaceId, indexedRoot))), indexedRoot };
    await readTexts(ctx, outside.changed.map((id) => wanted.get(id)!.bodyHash), texts);
    const report = await write(ctx, spaceId, root, wanted, texts, outside);
    if (report) return report;
  }
  throw new Error(`The content of space "${spaceId}" kept changing while it was being indexed; the index will be brought up to date on the next attempt.`);
}
