import type { Document } from '@hocuspocus/server';
import type { AppServices } from '../context.ts';
import { createContext } from '../context.ts';
import { findRevision } from '../content/revisions.ts';
import { loadTree, walkPages, type RevisionTree } from '../content/tree.ts';
import { parseLiveName, presenceName } from './names.ts';
import { PAGE_DELETED } from './writer.ts';

/**
 * The change requests people have open live, followed as their trees change (decision 0140). Every second
 * (the live server's head poll) one query reads the head revision of each change request with a document open
 * in this process (a page's, or the presence channel the workspace opens beside it). When a head has moved
 * since it was last seen, its tree is read (from the tree cache when this process wrote it) and compared:
 *
 * - a page open here that the tree no longer holds (deleted through the API or the workspace, moved out or
 *   merged away, removed by Git Sync or an import) has its connections closed with PAGE_DELETED, the reason
 *   the editor shows, whoever has it open: a reader, or a writer who does not type (nothing is written for
 *   them, so the writer's own check never runs);
 * - when the tree's outline (what the page tree shows: pages, their order and nesting, titles, slugs, kinds,
 *   emoji, icons, link targets) changed, every other connection to the change request here is sent the
 *   stateless message `{"type":"tree"}`: the workspace reads the tree again through the API, with the
 *   person's own access. A head moved by a body edit alone (every live write) changes no outline and sends
 *   nothing.
 *
 * A write to a change request answered by this process's API compares at once (src/app.ts calls the live
 * server's `treeChanged` on its response), so a change made through the API here is not left waiting for the
 * poll; with Redis, the other processes are sent a notice naming the change request, and each with a document
 * of it open compares at once too (`notified`).
 *
 * It reads the database; a notice only makes it read sooner: whichever process, or which command (Git Sync,
 * the CLI), moved the head, on SQLite or PostgreSQL, with or without Redis, each process tells its own
 * connections what changed since it last told them (so no tree message is relayed between processes and
 * nobody is told twice). A change request first seen here is read before
 * its first document here answers (the load waits for it), so an edit right after someone opens it is compared
 * with the tree it had.
 */
export class TreeFollower {
  /** Each change request with a document open here: the head last compared, its outline and page ids. */
  private readonly seen = new Map<string, { revision: string; outline: string; pages: Set<string> }>();
  /** The run going on, and the one asked for meanwhile (made once after it, for every caller who asked). */
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /**
   * Documents loading (`opened`), by when: Hocuspocus adds a document to its map only after its load hooks,
   * `afterLoadDocument` included, and any other extension's after it; until the map has it (or a minute has
   * passed: a load that failed), its change request is followed from here.
   */
  private readonly loading = new Map<Document, number>();
  /** Counts, for tests and figures: head reads, trees compared, pages stopped, tree messages sent. */
  readonly stats = { polls: 0, compared: 0, stopped: 0, told: 0 };

  constructor(
    private readonly services: AppServices,
    private readonly documents: () => Map<string, Document>,
    private readonly log: { warn(object: object, message: string): void },
  ) {}

  /** Compares the heads; resolves when a comparison that started after this call has ended. Never rejects. */
  follow(): Promise<void> {
    if (!this.running) {
      this.running = this.followOnce()
        .catch((error: unknown) => this.log.warn({ err: error }, 'live documents: could not compare the trees of their change requests'))
        .finally(() => {
          this.running = null;
        });
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = null;
      return this.follow();
    });
    return this.queued;
  }

  /**
   * A notice from another process that it answered a write to `changeRequestId` (decision 0140, step 8): the
   * trees are compared at once when a document of it is open here (loaded or loading), as the poll would.
   */
  notified(changeRequestId: string): void {
    for (const document of [...this.documents().values(), ...this.loading.keys()]) {
      if (changeRequestOf(document.name) === changeRequestId) {
        void this.follow();
        return;
      }
    }
  }

  /**
   * Follows the change request of `document`, which is loading (afterLoadDocument): resolves once its head is
   * recorded, so the document answers only then (step 5 of decision 0140). The document is not yet among the
   * server's, so it is followed from `loading` until it is.
   */
  opened(document: Document): Promise<void> {
    this.loading.set(document, Date.now());
    return this.follow();
  }

  private async followOnce(): Promise<void> {
    const open = new Map<string, Document[]>();
    const loaded = this.documents();
    for (const [document, since] of this.loading) if (loaded.get(document.name) === document || Date.now() - since > 60_000) this.loading.delete(document);
    for (const document of [...loaded.values(), ...this.loading.keys()]) {
      const name = document.name;
      const changeRequestId = changeRequestOf(name);
      if (!changeRequestId) continue;
      const documents = open.get(changeRequestId) ?? [];
      documents.push(document);
      open.set(changeRequestId, documents);
    }
    for (const id of [...this.seen.keys()]) if (!open.has(id)) this.seen.delete(id);
    if (open.size === 0) return;
    this.stats.polls++;
    const heads = await this.services.db.selectFrom('change_requests').select(['id', 'revision']).where('id', 'in', [...open.keys()]).execute();
    const operator = createContext(this.services, null);
    for (const head of heads) {
      const before = this.seen.get(head.id);
      if (before?.revision === head.revision) continue;
      const revision = await findRevision(operator, head.revision);
      if (!revision) continue;
      const tree = await loadTree(operator, revision.root);
      this.stats.compared++;
      const now = { revision: head.revision, outline: outlineOf(tree), pages: new Set(tree.byId.keys()) };
      this.seen.set(head.id, now);
      const documents = open.get(head.id) ?? [];
      for (const document of documents) {
        if (presenceName(document.name)) continue;
        if (now.pages.has(parseLiveName(document.name).pageId)) continue;
        for (const connection of document.getConnections()) {
          this.stats.stopped++;
          connection.close({ code: 4404, reason: PAGE_DELETED } as never);
        }
      }
      if (!before || before.outline === now.outline) continue;
      for (const document of documents) {
        for (const connection of document.getConnections()) {
          this.stats.told++;
          connection.sendStateless(TREE_CHANGED);
        }
      }
    }
  }
}

/** The stateless message that tells a connection its change request's tree changed. */
export const TREE_CHANGED = JSON.stringify({ type: 'tree' });

/** The change request a live document belongs to (a page's, or a presence channel's); null for another name. */
function changeRequestOf(name: string): string | null {
  const presence = presenceName(name);
  if (presence) return presence.changeRequestId;
  try {
    return parseLiveName(name).changeRequestId;
  } catch {
    return null;
  }
}

/** Outlines by tree (cached trees are shared and never change: computed once each). */
const outlines = new WeakMap<RevisionTree, string>();

/** What the page tree shows of a revision, as text: equal text, nothing to read again. */
export function outlineOf(tree: RevisionTree): string {
  let outline = outlines.get(tree);
  if (outline === undefined) {
    const rows: unknown[] = [];
    for (const page of walkPages(tree.pages)) {
      const node = page.node;
      rows.push([node.id, page.parentId, node.type, node.title, page.slug, node.emoji ?? null, node.icon ?? null, node.hidden ?? false, node.target ?? null, node.href ?? null]);
    }
    outline = JSON.stringify(rows);
    outlines.set(tree, outline);
  }
  return outline;
}
