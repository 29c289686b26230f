import type { Kysely } from 'kysely';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { DialectName } from './db/database.ts';
import type { DB } from './db/types.ts';
import type { DomainEventMap } from './events.ts';
import type { IdGenerator } from './ids.ts';
import type { PolicyLedger } from './policy/index.ts';
import type { SecretBox, Signer } from './secrets.ts';
import type { BlobStore } from './storage/blobs.ts';
import { Unauthorized } from './errors.ts';

/** The user a request acts for. */
export interface Actor {
  userId: string;
  email: string;
  /** The id of the API token the request came with (never the token itself). */
  tokenId?: string;
  /** The id of the browser session the request came with (the row's id, never the cookie's secret). */
  sessionId?: string;
}

/**
 * The audit record of a write request (src/audit/trail.ts), completed inside the request's transaction:
 * `inTransaction` calls `record` with the open transaction after the work succeeded, and `committed`
 * once it has committed, so the write and its record commit together or not at all.
 */
export interface WriteRecord {
  /** True once a transaction holding this record has committed. */
  readonly recorded: boolean;
  record(tx: Context): Promise<void>;
  committed(): void;
}

/** A claimed job, as its handler sees it. */
export interface JobInfo {
  id: string;
  kind: string;
  /** This run is attempt number `attempts` (1 for the first run). */
  attempts: number;
  maxAttempts: number;
  runAt: string;
}

/** A handler may ask to run again later without it counting as a failed attempt (the work is not due yet). */
export type JobOutcome = void | { rescheduleAt: Date };

/**
 * A job kind as the runner calls it: the stored payload is handed over as read; `handle` (src/jobs/types.ts)
 * checks its type where the kind's handler is registered.
 */
export interface RunnableJob {
  /** How long a worker holds a job before another may take it over. */
  readonly leaseMs?: number;
  /** Milliseconds to wait before retry number `attempt`. */
  backoffMs?(attempt: number): number;
  run(ctx: Context, payload: unknown, job: JobInfo): Promise<JobOutcome>;
}

/** The kinds of background job an app runs, by name (src/jobs/registry.ts). */
export interface JobHandlers {
  get(kind: string): RunnableJob | undefined;
}

/** Tells the subscribers of a domain event, in the caller's transaction (src/event-bus.ts). */
export interface EventBus {
  emit<K extends keyof DomainEventMap>(tx: Context, kind: K, event: DomainEventMap[K]): Promise<void>;
}

/** What every service function receives: who acts, the database (or the open transaction), time and ids. */
export interface Context extends PolicyLedger {
  db: Kysely<DB>;
  dialect: DialectName;
  clock: Clock;
  ids: IdGenerator;
  config: Config;
  secrets: SecretBox;
  cursors: Signer;
  /** Signs URLs that Quire serves without a token (file downloads). */
  urls: Signer;
  blobs: BlobStore;
  /** The kinds of background job this app runs (assembled in src/services.ts). */
  jobs: JobHandlers;
  /** Who is told of domain events (assembled in src/services.ts). */
  events: EventBus;
  actor: Actor | null;
  /** The audit record of the write this request makes; null for reads, jobs and the CLI. */
  audit: WriteRecord | null;
  /**
   * Told around each outermost transaction: `before` as it starts, `committed` with what `before` gave
   * once it has committed. The app's memory of rows (src/db/memo.ts) forgets then what the transaction
   * wrote, since reads that ran while it was open saw the rows as they were.
   */
  transactionWatch?: { before(): number; committed(before: number): void };
  /** A request's: the version of SQLite files written by other processes, read once at its first memo lookup (src/db/memo.ts). */
  externalSeen?: { version?: number };
}

/** The services shared by every Context of one running app. */
export type AppServices = Omit<Context, 'actor' | 'checked' | 'audit' | 'externalSeen'>;

/**
 * A Context for `actor`, made on every request. Each service is named (not spread from `services`): V8 makes
 * an object spread and then added to (`{ ...services, actor }`) on a slow path, about a hundred times the cost
 * of this literal (issue 29's profile of every /v1 request). A service added to AppServices must be added here:
 * `everyService` below fails to compile until it is.
 */
export function createContext(services: AppServices, actor: Actor | null, externalSeen?: Context['externalSeen']): Context {
  return {
    db: services.db,
    dialect: services.dialect,
    clock: services.clock,
    ids: services.ids,
    config: services.config,
    secrets: services.secrets,
    cursors: services.cursors,
    urls: services.urls,
    blobs: services.blobs,
    jobs: services.jobs,
    events: services.events,
    transactionWatch: services.transactionWatch,
    actor,
    checked: new Set(),
    audit: null,
    externalSeen,
  };
}

/** The services createContext names; compiling fails when AppServices has one more. */
const everyService = ['db', 'dialect', 'clock', 'ids', 'config', 'secrets', 'cursors', 'urls', 'blobs', 'jobs', 'events', 'transactionWatch'] as const;
type Unnamed = Exclude<keyof AppServices, (typeof everyService)[number]>;
const _allNamed: [Unnamed] extends [never] ? true : Unnamed = true;
void _allNamed;

/** The acting user; 401 when the request has none. */
export function requireActor(ctx: Context): Actor {
  if (!ctx.actor) throw new Unauthorized();
  return ctx.actor;
}

/**
 * Runs `work` in one transaction, with a Context whose `db` is that transaction. Nested calls reuse it.
 * The one place a request's writes commit: the request's audit record is written here, in the same
 * transaction, after the work succeeded.
 */
export async function inTransaction<T>(ctx: Context, work: (tx: Context) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return work(ctx);
  const audit = ctx.audit;
  const watched = ctx.transactionWatch?.before() ?? 0;
  const result = await ctx.db.transaction().execute(async (trx) => {
    // Copied by assign, not spread and added to (slow in V8, see createContext).
    const tx: Context = Object.assign({}, ctx, { db: trx, checked: ctx.checked });
    const value = await work(tx);
    if (audit && !audit.recorded) await audit.record(tx);
    return value;
  });
  ctx.transactionWatch?.committed(watched);
  audit?.committed();
  return result;
}

/** Now, as the ISO string Quire stores. */
export function nowIso(ctx: Pick<Context, 'clock'>): string {
  return ctx.clock.now().toISOString();
}
