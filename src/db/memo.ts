import type { Kysely, KyselyPlugin, WithNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { DialectName } from './database.ts';
import type { DB } from './types.ts';
import { listenOnChannel, type ChannelListener } from './notifications.ts';

/**
 * Access answered from memory. The rows every request reads to decide what its caller may do (the
 * organization with the caller's membership, a space with it, a collection's chain of default levels, a
 * user's grants; a published site with the current revision of each space it shows) change rarely and are
 * read on every request, so each process remembers them, and forgets
 * everything it remembered whenever any of the tables they come from changes:
 *
 * - **In this process**, a Kysely plugin on the services' database (`accessWrites`) sees every write to
 *   those tables as it is sent, and again when it has run, and `inTransaction` (src/context.ts, through the Context's `transactionWatch`) once more
 *   after the commit: a read that raced a write is never kept (each entry is stored only if no write was
 *   seen between the start of its query and its end).
 * - **In other processes** (PostgreSQL only: SQLite has one serving process), a trigger on each table
 *   (migration 2026-11-27-0370) notifies `quire_access_changed` when the writing transaction commits;
 *   every serving process listens (`listenForAccessChanges`, started by `quire serve`) and forgets. While
 *   the listener is not connected (before the first connection, after a drop) nothing is answered from
 *   memory on PostgreSQL; after each (re)connection everything is forgotten.
 *
 * - **SQLite files written by another process** (the CLI importing while Quire serves): SQLite's
 *   `data_version` of the file is compared on each lookup (`watchExternalWrites`, set up in `buildApp`;
 *   read from the file once per turn of the event loop, and after any write by this process).
 *
 * The bound on staleness, then: none within a process; for another process's commit to a SQLite file, the
 * rest of the event loop's turn in which it landed (the file's version is read once per turn: database.ts);
 * on PostgreSQL, the time a notification takes from the commit to another process (a network round trip,
 * normally well under a millisecond on one host). As an outer bound for anything else, an entry is never
 * used more than MEMO_SECONDS after it was read.
 * Reads inside a transaction always query: a write's checks must see the rows as they are.
 */

/**
 * The tables whose rows decide access (the migrations' trigger lists: 2026-11-27-0370), and the two more a
 * warm published page depends on (2026-11-28-0450: a site's share links, which admit its readers, and the
 * organization's OpenAPI specs, whose versions its pages show; src/published/warm-pages.ts).
 */
const ACCESS_TABLES = new Set(['organizations', 'members', 'teams', 'team_members', 'spaces', 'collections', 'content_permissions', 'sites', 'site_spaces', 'revisions', 'site_share_links', 'openapi_specs']);
/** Raw SQL that writes one of them (Kysely quotes names, hand-written SQL may not). */
const RAW_ACCESS_WRITE = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+"?(organizations|members|teams|team_members|spaces|collections|content_permissions|sites|site_spaces|revisions|site_share_links|openapi_specs)"?\b/i;
export const ACCESS_CHANNEL = 'quire_access_changed';
export const MEMO_SECONDS = 60;
const MAX_ENTRIES = 20_000;

let generation = 0;
/** Versions of SQLite files that another process may write (PRAGMA data_version of each open file). */
const externalVersions = new Set<() => number>();

/**
 * Watches a SQLite file for commits by other processes (the CLI importing into a space while Quire
 * serves): each memo lookup compares its version (read from SQLite at most once per turn of the loop). Returns the
 * function that stops watching (when the app closes).
 */
export function watchExternalWrites(version: () => number): () => void {
  externalVersions.add(version);
  return () => externalVersions.delete(version);
}

function external(): number {
  let sum = 0;
  for (const version of externalVersions) sum += version();
  return sum;
}
/** Listeners connected now, by id (several apps may run in one process, e.g. in tests). */
const connected = new Set<number>();
let listeners = 0;

/**
 * The tables of ACCESS_TABLES that say what content is (a revision) or what a published site shows, and
 * nothing about who may read or edit a space or change request: a write to them alone forgets the memo but
 * is not a change of access for `onAccessChanged`'s listeners. Revisions are written on every save (a live
 * document's write every couple of seconds while people type), and each one used to make every process
 * re-check every live socket.
 */
const CONTENT_TABLES = new Set(['revisions', 'sites', 'site_spaces']);
/** The payload suffix of a notice from a content table (migration 2026-11-28-0463); the payload starts with the schema. */
export const CONTENT_NOTICE = '#content';

/**
 * Forgets everything remembered (each entry carries the generation it was read in); `who` false when only
 * content tables were written (CONTENT_TABLES): the listeners of access changes are then not told.
 */
export function accessChanged(who = true): void {
  generation++;
  if (who) for (const listener of changeListeners) listener();
}

/** Called on every access change this process learns of (its own writes, other processes' notices). */
const changeListeners = new Set<() => void>();

/**
 * Tells `listener` of every change of who may do what (the live server re-checks its sockets:
 * src/live/server.ts): a write to the access tables other than CONTENT_TABLES, a change request's status
 * changed (it decides whether its live documents are written), a session ended, a token revoked; not a
 * revision written. It is called often and synchronously, so it should only schedule work. Returns the
 * function that stops it.
 */
export function onAccessChanged(listener: () => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** Whether access may be answered from memory on this database now. */
function active(dialect: DialectName): boolean {
  return dialect === 'sqlite' || connected.size > 0;
}

function tablesIn(node: unknown, found: Set<string>, depth = 0): void {
  if (!node || typeof node !== 'object' || depth > 40) return;
  if (Array.isArray(node)) {
    for (const item of node) tablesIn(item, found, depth + 1);
    return;
  }
  const record = node as Record<string, unknown>;
  if (record.kind === 'TableNode') {
    const name = (record.table as { identifier?: { name?: string } } | undefined)?.identifier?.name;
    if (name) found.add(name);
    return;
  }
  for (const value of Object.values(record)) if (value && typeof value === 'object') tablesIn(value, found, depth + 1);
}

/** Whether an update sets a change request's status (a draft or open change request is edited live, others are read). */
function setsChangeRequestStatus(node: RootOperationNode): boolean {
  if (node.kind !== 'UpdateQueryNode') return false;
  const found = new Set<string>();
  tablesIn(node.table, found);
  if (!found.has('change_requests')) return false;
  return (node.updates ?? []).some((update) => (update.column as { column?: { name?: string } }).column?.name === 'status');
}

/**
 * Which access tables a query writes: 'none', 'content' (only CONTENT_TABLES: the memo forgets, access
 * listeners are not told) or 'access'.
 */
function writesAccess(node: RootOperationNode): 'none' | 'content' | 'access' {
  if (setsChangeRequestStatus(node)) return 'access';
  const tables = accessTablesWritten(node);
  if (tables.length === 0) return 'none';
  return tables.every((table) => CONTENT_TABLES.has(table)) ? 'content' : 'access';
}

function accessTablesWritten(node: RootOperationNode): string[] {
  switch (node.kind) {
    case 'SelectQueryNode':
      // A select writes only through a data-modifying statement in its `with` (Quire has none on these
      // tables); its other common table expressions read, as the rest of it does.
      return node.with ? writtenByWith(node.with) : [];
    case 'RawNode': {
      const raw = node.sqlFragments.join(' ');
      if (/\bupdate\s+"?change_requests"?\b[\s\S]*\bset\b[\s\S]*\bstatus\b/i.test(raw)) return ['change_requests'];
      const written = [...raw.matchAll(new RegExp(RAW_ACCESS_WRITE.source, 'gi'))].map((match) => match[1].toLowerCase());
      return written;
    }
    case 'InsertQueryNode':
    case 'UpdateQueryNode':
    case 'DeleteQueryNode':
    case 'MergeQueryNode':
      break;
    default:
      return [];
  }
  const target = node.kind === 'InsertQueryNode' || node.kind === 'MergeQueryNode' ? node.into : node.kind === 'UpdateQueryNode' ? node.table : node.from;
  const found = new Set<string>();
  tablesIn(target, found);
  for (const table of node.with ? writtenByWith(node.with) : []) found.add(table);
  return [...found].filter((table) => ACCESS_TABLES.has(table));
}

/**
 * The access tables written by the data-modifying statements of a `with` (and of the `with`s inside its
 * selects). A common table expression that only reads (the chain of a collection's default levels, read on
 * every search) writes nothing: counting the tables it reads as written forgot the memo, and told every
 * live socket to be checked again, on every request that read through one.
 */
function writtenByWith(node: WithNode): string[] {
  const written: string[] = [];
  // accessTablesWritten answers [] for a kind that writes nothing.
  for (const expression of node.expressions) written.push(...accessTablesWritten(expression.expression as RootOperationNode));
  return written;
}

/**
 * The plugin that tells the memo of this process's writes: before a write to an access table is sent
 * (so no read that starts after it is kept) and after it has run. `inTransaction` calls `accessChanged`
 * after a commit that wrote them (through `accessTransactions`, the Context's `transactionWatch`).
 */
export class AccessWrites implements KyselyPlugin {
  private readonly pending = new WeakMap<object, boolean>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const kind = writesAccess(args.node);
    if (kind !== 'none') {
      writes++;
      if (kind === 'access') lastWhoWrite = writes;
      accessChanged(kind === 'access');
      this.pending.set(args.queryId, kind === 'access');
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const who = this.pending.get(args.queryId);
    if (who !== undefined) accessChanged(who);
    return args.result;
  }
}

let writes = 0;
/** The value of `writes` at the last write that changed who may do what (not only content tables). */
let lastWhoWrite = 0;
/**
 * The Context's `transactionWatch` (set in buildApp): after a commit that wrote access tables, forget what
 * was read while it was open; the access listeners are told when a write of who may do what was sent while
 * it was open (by it, or by another transaction at the same time: told once more, never less).
 */
export const accessTransactions = {
  before: (): number => writes,
  committed(before: number): void {
    if (writes !== before) accessChanged(lastWhoWrite > before);
  },
};

/** Answers given from memory, and whether a listener is connected (for tests and the profile). */
export const accessMemoStats = {
  hits: 0,
  get listening(): boolean {
    return connected.size > 0;
  },
};
/** How many writes to access tables this process has sent (compared before and after a transaction). */
export function accessWriteCount(): number {
  return writes;
}

/**
 * When something derived from these tables was started: what is made from rows read after this stamp may
 * be kept while `memoCurrent` holds for it (the published reader's warm pages). Null when nothing may be
 * kept now (PostgreSQL without a connected listener).
 */
export interface MemoStamp {
  generation: number;
  external: number;
}

export function memoStamp(dialect: DialectName): MemoStamp | null {
  return active(dialect) ? { generation, external: external() } : null;
}

/** Whether nothing the memo watches has changed since `stamp` was taken (and memory may still be used). */
export function memoCurrent(stamp: MemoStamp, dialect: DialectName): boolean {
  return stamp.generation === generation && active(dialect) && stamp.external === external();
}

/**
 * Where a request's context keeps the version of the SQLite files it saw at its first lookup (set by the
 * app for each request: src/app.ts), so that its later lookups do not each ask SQLite again. Another
 * process's commit is then seen by the next request, as one that lands while a request runs always was for
 * whatever that request had read already.
 */
export interface ExternalSeen {
  version?: number;
}

interface Entry<Row> {
  generation: number;
  external: number;
  until: number;
  rows: Row[];
}

/**
 * A prepared query (src/db/prepared.ts) of access rows, answered from memory by its arguments when
 * nothing could have changed them (see above). The rows are shared between callers: they must not be
 * changed (the access functions copy what they keep). `maxRows` bounds the rows held in all (a query whose
 * answer is a list, such as the spaces a caller may read): past it, everything held is forgotten, and an
 * answer longer than it is not kept.
 */
export function memoized<Args extends string[], Row>(query: (target: { db: Kysely<DB>; dialect: DialectName }, ...args: Args) => Promise<Row[]>, { maxRows = Number.POSITIVE_INFINITY } = {}) {
  const entries = new Map<string, Entry<Row>>();
  let rowsHeld = 0;
  return async (target: { db: Kysely<DB>; dialect: DialectName; externalSeen?: ExternalSeen }, ...args: Args): Promise<Row[]> => {
    if (target.db.isTransaction || !active(target.dialect)) return query(target, ...args);
    const key = args.join('\u0000');
    const now = Date.now();
    const hit = entries.get(key);
    // A request reads the file's version once, at its first lookup: its reads are then those of that moment.
    const version = target.externalSeen ? (target.externalSeen.version ??= external()) : external();
    if (hit && hit.generation === generation && hit.external === version && hit.until > now) {
      accessMemoStats.hits++;
      return hit.rows;
    }
    const started = generation;
    const rows = await query(target, ...args);
    if (generation === started && external() === version && active(target.dialect) && rows.length <= maxRows) {
      rowsHeld -= entries.get(key)?.rows.length ?? 0;
      if (entries.size >= MAX_ENTRIES || rowsHeld + rows.length > maxRows) {
        entries.clear();
        rowsHeld = 0;
      }
      entries.set(key, { generation: started, external: version, until: now + MEMO_SECONDS * 1000, rows });
      rowsHeld += rows.length;
    }
    return rows;
  };
}

/**
 * Listens for other processes' access changes (PostgreSQL): forgets everything on each notification (of
 * `schema`'s tables when given: the trigger's payload is the schema written) and
 * on each (re)connection; while disconnected, access is read from the database on every request.
 */
export function listenForAccessChanges(databaseUrl: string, onError: (error: unknown) => void, schema?: string): ChannelListener {
  const id = ++listeners;
  const listener = listenOnChannel(databaseUrl, ACCESS_CHANNEL, {
    // The channel is the database's: when Quire's tables live in a schema of their own, changes in other
    // schemas (other installations, or tests, on the same database) are not this process's.
    onNotification: (payload) => {
      // The payload: the schema written, followed by CONTENT_NOTICE when only content tables were.
      const content = payload.endsWith(CONTENT_NOTICE);
      const changedSchema = content ? payload.slice(0, -CONTENT_NOTICE.length) : payload;
      if (schema === undefined || changedSchema === schema) accessChanged(!content);
    },
    onConnect: () => {
      accessChanged();
      connected.add(id);
    },
    onError: (error) => {
      connected.delete(id);
      accessChanged();
      onError(error);
    },
  });
  return {
    async close() {
      connected.delete(id);
      await listener.close();
    },
  };
}
