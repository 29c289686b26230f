import type { Kysely } from 'kysely';
import type { Context, WriteRecord } from '../context.ts';
import type { DB } from '../db/types.ts';
import type { IdGenerator } from '../ids.ts';
import type { Clock } from '../clock.ts';

/**
 * The audit trail of one write request: who (user, token id), what (operation, the ids it named and the id
 * of what it created), when, from where (address, user agent) and the outcome. A write that succeeds is
 * recorded inside its own transaction (`inTransaction` calls `record`), so the change and its record commit
 * together; a refused or failed write is recorded after the answer is known, outside the transaction that
 * was rolled back. Nothing of the request's body, query or headers but the user agent is kept: no secret
 * can enter the log.
 */

export type AuditOutcome = 'succeeded' | 'refused' | 'failed';

/** What is known of a write request when it starts. */
export interface AuditRequest {
  userId: string | null;
  tokenId: string | null;
  operation: string;
  method: string;
  route: string;
  /** The path parameters that name objects (ids only). */
  objectIds: Record<string, string>;
  ip: string | null;
  userAgent: string | null;
}

type Writer = { db: Kysely<DB>; ids: IdGenerator; clock: Clock };

/** Longest user agent kept. */
const USER_AGENT_LIMIT = 512;

/** The outcome a status means: 2xx and 3xx succeeded, 5xx failed, every other status refused. */
export function outcomeOf(status: number): AuditOutcome {
  if (status < 400) return 'succeeded';
  return status >= 500 ? 'failed' : 'refused';
}

/**
 * The organization a write concerned, from the ids it named: its organization, or the organization of the
 * space or collection it acted on. Null when it named none (the caller's own user) or an unknown object.
 */
async function organizationOf(db: Kysely<DB>, ids: Record<string, string>): Promise<string | null> {
  if (ids.organizationId) return ids.organizationId;
  if (ids.spaceId) {
    const row = await db.selectFrom('spaces').select('organization_id').where('id', '=', ids.spaceId).executeTakeFirst();
    return row?.organization_id ?? null;
  }
  if (ids.collectionId) {
    const row = await db.selectFrom('collections').select('organization_id').where('id', '=', ids.collectionId).executeTakeFirst();
    return row?.organization_id ?? null;
  }
  return null;
}

export class RequestAudit implements WriteRecord {
  private entryId: string | null = null;
  private done = false;

  constructor(private readonly request: AuditRequest) {}

  get recorded(): boolean {
    return this.done;
  }

  /** Writes the entry of a write that succeeded, in its transaction (called by `inTransaction`). */
  async record(tx: Context): Promise<void> {
    this.entryId = await this.insert(tx, 'succeeded', null);
  }

  committed(): void {
    if (this.entryId) this.done = true;
  }

  /**
   * Completes the entry once the answer is known: adds the id of a created object to a recorded entry, and
   * records a refused or failed write (or a successful one that wrote outside a transaction).
   */
  async finish(writer: Writer, status: number, createdId: string | null): Promise<void> {
    const outcome = outcomeOf(status);
    if (this.done && outcome === 'succeeded') {
      if (createdId && !Object.values(this.request.objectIds).includes(createdId)) {
        const objectIds = JSON.stringify({ ...this.request.objectIds, created: createdId });
        await writer.db.updateTable('audit_log').set({ object_ids: objectIds, status }).where('id', '=', this.entryId!).execute();
      }
      return;
    }
    await this.insert(writer, outcome, status, createdId);
    this.done = true;
  }

  private async insert(writer: Writer, outcome: AuditOutcome, status: number | null, createdId: string | null = null): Promise<string> {
    const { request } = this;
    const id = writer.ids.next();
    const objectIds = createdId && !Object.values(request.objectIds).includes(createdId) ? { ...request.objectIds, created: createdId } : request.objectIds;
    await writer.db
      .insertInto('audit_log')
      .values({
        id,
        organization_id: await organizationOf(writer.db, request.objectIds),
        user_id: request.userId,
        token_id: request.tokenId,
        operation: request.operation,
        method: request.method,
        route: request.route,
        object_ids: JSON.stringify(objectIds),
        outcome,
        status,
        ip: request.ip,
        user_agent: request.userAgent === null ? null : request.userAgent.slice(0, USER_AGENT_LIMIT),
        created_at: writer.clock.now().toISOString(),
      })
      .execute();
    return id;
  }
}
