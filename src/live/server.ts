import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Hocuspocus, type Document, type Extension } from '@hocuspocus/server';
import { WebSocketServer } from 'ws';
import type { Actor, AppServices } from '../context.ts';
import { createContext } from '../context.ts';
import type { TokenAuthenticator } from '../http/auth.ts';
import { authenticateLive, authorizeLive, type LiveCredentials } from './access.ts';
import { LiveLimits, LiveRefusal, refusalOf } from './limits.ts';
import { LiveMetrics } from './metrics.ts';
import { takeOverFanOut, WriteCoalescer } from './fanout.ts';
import { parseLiveName, presenceName, type LiveName, type PresenceName } from './names.ts';
import { onAccessChanged } from '../db/memo.ts';
import { hashToken } from '../secrets.ts';
import { applyInSteps, createLive, loadLive } from './store.ts';
import { UpdateBatcher } from './appends.ts';
import { TurnRedis } from './redis.ts';
import { checkModelVersion } from './model.ts';
import { initialPage, writeLive } from './writer.ts';
import { TreeFollower } from './trees.ts';

/** The reason given to a connection whose person can no longer read its change request (the re-check). */
export const LOST_ACCESS = 'you no longer have access to this change request.';

/** The path of the live WebSocket on Quire's HTTP port. */
export const LIVE_PATH = '/v1/live';

/** What a connection carries between hooks (Hocuspocus's context). */
export interface LiveContext {
  actor: Actor;
  /** The page's document, or the change request's presence channel (no content, read-only). */
  name: LiveName | PresenceName;
  readOnly: boolean;
  credentials: LiveCredentials;
  limits: LiveLimits;
}

interface Logger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Y-sync message types (y-protocols/sync) inside Hocuspocus's Sync message. */
const SYNC = 0;
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

/**
 * Live co-editing on Quire's own port: a WebSocket at /v1/live speaking Hocuspocus's protocol (Yjs sync and
 * awareness, several documents per socket). Each document is a page of a change request; each connection
 * to it is authenticated and authorized through the access layer (src/live/access.ts), re-checked every
 * QUIRE_LIVE_RECHECK_SECONDS (a revoked session, token or grant closes it). Every update a writer sends is
 * stored before it is applied and acknowledged (the updates of one event-loop turn in one batch: appends.ts); after QUIRE_LIVE_IDLE_MS without typing (at most
 * QUIRE_LIVE_MAX_WAIT_MS) the page is written to the change request as a revision (src/live/writer.ts).
 * With QUIRE_REDIS_URL, Hocuspocus's Redis extension relays updates and presence between processes (once
 * per document and turn: redis.ts) and lets one process at a time write a document; its connections also
 * carry the notices that a change request's tree may have changed (decision 0140, step 8).
 */
export class LiveServer {
  readonly hocuspocus: Hocuspocus;
  readonly metrics: LiveMetrics;
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  private readonly writes = new WriteCoalescer();
  private readonly appends: UpdateBatcher;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly writing = new Set<string>();
  /** Documents whose store was asked for while they were being written: written once more after. */
  private readonly writeAgain = new Set<string>();
  private readonly lastEditors = new Map<string, Actor>();
  /** When a write of a document with stale stored updates was last forced (pollHeads). */
  private readonly forcedAt = new Map<string, number>();
  private closed = false;
  /** Closed, every document written and dropped: a store asked for later writes nothing. */
  private finished = false;
  /** A re-check asked for by an access notice: scheduled, running, and asked for again while running. */
  private recheckSoon: NodeJS.Timeout | null = null;
  private rechecking = false;
  private recheckAgain = false;
  private readonly stopListening: () => void;
  /** The change requests open here, followed as their trees change (pages deleted, added, renamed, moved). */
  readonly trees: TreeFollower;
  /** The Redis extension, when QUIRE_REDIS_URL is set: it also carries the tree notices between processes. */
  private readonly redis: TurnRedis | null = null;

  constructor(
    private readonly services: AppServices,
    private readonly tokens: TokenAuthenticator,
    private readonly log: Logger,
    registry: import('prom-client').Registry,
  ) {
    const config = services.config;
    const extensions: Extension[] = [];
    if (config.redisUrl) {
      const url = new URL(config.redisUrl);
      this.redis = new TurnRedis({
        host: url.hostname,
        port: Number(url.port || 6379),
        prefix: 'quire-live',
        options: { ...(url.password ? { password: decodeURIComponent(url.password) } : {}), ...(url.username ? { username: decodeURIComponent(url.username) } : {}), db: Number(url.pathname.slice(1) || 0) },
      }, log);
      extensions.push(this.redis);
    }
    this.appends = new UpdateBatcher(services);
    this.metrics = new LiveMetrics(registry, () => this.hocuspocus, this.appends);
    extensions.push(this.extension());
    this.hocuspocus = new Hocuspocus({
      quiet: true,
      debounce: config.live.idleMs,
      maxDebounce: config.live.maxWaitMs,
      unloadImmediately: false,
      extensions,
    });
    this.trees = new TreeFollower(services, () => this.hocuspocus.documents, log);
    // Another process answered a write to a change request: compared at once here when it is open here.
    if (this.redis) this.redis.onTreeNotice = (changeRequestId) => this.trees.notified(changeRequestId);
    this.timers.push(setInterval(() => void this.pollHeads(), config.live.headPollMs).unref());
    this.timers.push(setInterval(() => void this.recheck(), config.live.recheckSeconds * 1000).unref());
    // Any change of access this process learns of (its own writes; on PostgreSQL every process's, and ended
    // sessions and revoked tokens: migrations 2026-11-27-0370 and 2026-11-28-0440; a change request's status,
    // migration 2026-11-28-0463) re-checks the sockets within a moment; the periodic re-check stays the bound
    // when a notice is missed. A revision written (every live write) is not a change of access: it re-checks nothing.
    this.stopListening = onAccessChanged(() => this.recheckShortly());
  }

  /**
   * A write to a change request was answered by this process (src/app.ts, on the response): the trees open here
   * are compared at once, and with Redis every other process is sent a notice to compare the change request's
   * tree too (decision 0140, steps 7 and 8). Each compares with what it last told: nobody is told twice.
   */
  treeChanged(changeRequestId: string | undefined): void {
    if (this.closed) return;
    void this.trees.follow();
    if (changeRequestId) this.redis?.publishTreeNotice(changeRequestId);
  }

  /** Re-checks every connection shortly (notices come in bursts: one re-check for a burst). */
  private recheckShortly(): void {
    if (this.closed || this.recheckSoon) return;
    if (this.hocuspocus.getConnectionsCount() === 0) return;
    this.recheckSoon = setTimeout(() => {
      this.recheckSoon = null;
      void this.recheck();
    }, 200);
    this.recheckSoon.unref();
  }

  /** Takes the upgrades of /v1/live on `server`; other upgrades are left to their handlers. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== LIVE_PATH && path !== `${LIVE_PATH}/`) return;
      if (this.closed) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
        return;
      }
      this.sockets.handleUpgrade(request, socket, head, (ws) => {
        const send = ws.send.bind(ws) as (...args: unknown[]) => void;
        ws.send = ((...args: unknown[]) => {
          this.metrics.sent++;
          this.writes.hold(ws);
          send(...args);
        }) as typeof ws.send;
        this.hocuspocus.handleConnection(ws, request, { ip: request.socket.remoteAddress ?? null });
      });
    });
  }

  /** Writes every open document now, then closes the connections (graceful shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.stopListening();
    if (this.recheckSoon) clearTimeout(this.recheckSoon);
    for (const document of [...this.hocuspocus.documents.values()]) {
      await this.store(document).catch((error: unknown) => this.log.error({ err: error, document: document.name }, 'live document not written at shutdown'));
    }
    this.hocuspocus.closeConnections();
    for (const client of this.sockets.clients) client.terminate();
    this.sockets.close();
    // Every document was written above: none is kept, and a store still scheduled runs now, writing nothing
    // (the database closes after this), so no timer of a document outlives the server.
    this.finished = true;
    for (const document of [...this.hocuspocus.documents.values()]) {
      await this.hocuspocus.debouncer.executeNow(`onStoreDocument-${document.name}`);
      this.hocuspocus.documents.delete(document.name);
      document.destroy();
    }
    await this.hocuspocus.hooks('onDestroy', { instance: this.hocuspocus });
  }

  /**
   * A write that failed. A page deleted, or a change request merged or closed, while people had it open: the
   * document can never be written, so its connections are closed with the reason (the editor says it) and it
   * is unloaded. Anything else (the database unreachable a moment): logged, and the write is tried again
   * within seconds while the document is open (pollHeads); the updates are stored meanwhile, so nothing is lost.
   */
  private writeFailed(document: Document, error: unknown): void {
    const refusal = refusalOf(error);
    if (refusal.code === 4500) {
      this.log.error({ err: error, document: document.name }, 'live document not written; tried again shortly');
      return;
    }
    this.log.info({ document: document.name, reason: refusal.reason }, 'live document can no longer be written; its editors are told');
    for (const connection of document.getConnections()) connection.close({ code: refusal.code, reason: refusal.reason } as never);
  }

  private extension(): Extension {
    const services = this.services;
    const config = services.config;
    return {
      onAuthenticate: async ({ documentName, token, requestHeaders, requestParameters, context, connectionConfig }) => {
        try {
          const name = presenceName(documentName) ?? parseLiveName(documentName);
          if (!presenceName(documentName)) await checkModelVersion(requestParameters);
          const credentials: LiveCredentials = { headers: requestHeaders, token: token ?? '', ip: (context as { ip?: string | null }).ip ?? null };
          const actor = await authenticateLive(services, this.tokens, credentials);
          const grant = await authorizeLive(services, actor, name);
          // Hocuspocus makes the connection with this configuration: a read-only one's updates are refused.
          // A presence channel carries awareness only: nobody writes to it.
          connectionConfig.readOnly = grant.readOnly || presenceName(documentName) !== null;
          const additions: LiveContext = { actor, name, readOnly: connectionConfig.readOnly, credentials, limits: new LiveLimits(config.live) };
          return additions;
        } catch (error) {
          throw refusalOf(error);
        }
      },
      onLoadDocument: async ({ document, documentName, context }) => {
        if (presenceName(documentName)) return document;
        const name = parseLiveName(documentName);
        const ctx = createContext(services, (context as LiveContext).actor);
        let stored = await loadLive(ctx, name);
        if (!stored) {
          const page = await initialPage(ctx, name);
          stored = await createLive(ctx, name, page.state, page.revision);
        }
        await applyInSteps(document, stored.parts);
        this.metrics.setSize(name.key, stored.size);
        return document;
      },
      beforeHandleMessage: async ({ connection, update, context, documentName }) => {
        const live = context as LiveContext;
        try {
          live.limits.take(update.byteLength);
        } catch (error) {
          this.metrics.refused.inc({ reason: (error as LiveRefusal).code === 4429 ? 'rate' : 'update-size' });
          throw error;
        }
        const payload = syncUpdateOf(update);
        this.metrics.messages.inc();
        if (!payload || connection.readOnly || !('pageId' in live.name)) return;
        // An empty update (a client with nothing the server lacks) is two bytes: nothing to keep.
        if (payload.byteLength <= 2) return;
        const size = this.metrics.size(documentName) + payload.byteLength;
        if (size > config.live.maxDocumentBytes) {
          this.metrics.refused.inc({ reason: 'document-size' });
          throw new LiveRefusal(4413, `document too large: at most ${config.live.maxDocumentBytes} bytes; split the page`);
        }
        await this.appends.append({ name: live.name, update: payload, userId: live.actor.userId });
        this.metrics.setSize(documentName, size);
        this.metrics.updates.inc();
        this.lastEditors.set(documentName, live.actor);
      },
      afterLoadDocument: async ({ document }) => {
        // A change request first opened here is read before the document answers: a tree change right after is
        // compared with the tree the person was shown.
        await this.trees.opened(document);
        if (!takeOverFanOut(document)) this.log.warn({ document: document.name }, 'live fan-out: this Hocuspocus is not the one Quire was written against; its own broadcast is kept');
      },
      // Never throws: Hocuspocus keeps a document whose store failed in memory for good (its debouncer counts
      // the failed run as running, so the document is never unloaded), with its timers holding the process.
      onStoreDocument: async ({ document, documentName }) => {
        if (this.finished) return;
        try {
          await this.write(document, documentName);
        } catch (error) {
          this.writeFailed(document, error);
        }
      },
      afterUnloadDocument: async ({ documentName }) => {
        this.metrics.forget(documentName);
        this.lastEditors.delete(documentName);
        this.forcedAt.delete(documentName);
      },
    };
  }

  /**
   * Writes the document as a revision (one write per document at a time in this process). A store asked
   * for while a write runs is not dropped: the write runs once more when the current one ends, so the
   * last edits before people stop typing always reach the change request (and their browsers say so).
   */
  private async write(document: Document, documentName: string): Promise<void> {
    if (presenceName(documentName)) return;
    if (this.writing.has(documentName)) {
      this.writeAgain.add(documentName);
      return;
    }
    this.writing.add(documentName);
    try {
      do {
        this.writeAgain.delete(documentName);
        await this.writeOnce(document, documentName);
      } while (this.writeAgain.has(documentName));
    } finally {
      this.writing.delete(documentName);
      this.writeAgain.delete(documentName);
    }
  }

  private async writeOnce(document: Document, documentName: string): Promise<void> {
    const started = process.hrtime.bigint();
    // The last writer here, else anyone connected here who may write (an API edit to merge in, typed elsewhere).
    const writer = this.lastEditors.get(documentName) ?? document.getConnections().map((connection) => connection.context as LiveContext).find((live) => live?.actor && !live.readOnly)?.actor;
    const { size, written } = await writeLive(this.services, parseLiveName(documentName), document, writer, this.log);
    this.metrics.setSize(documentName, size);
    // Tells the people in the page (in every process, through Redis) what the change request now holds.
    if (written) document.broadcastStateless(JSON.stringify({ type: 'written', stateVector: Buffer.from(written).toString('base64') }));
    this.metrics.writes.observe(Number(process.hrtime.bigint() - started) / 1e9);
  }

  /** Runs the store hooks now (the Redis extension's lock first, when there is one). */
  private async store(document: Document): Promise<void> {
    await this.hocuspocus.storeDocumentHooks(
      document,
      {
        clientsCount: document.getConnectionsCount(),
        context: {},
        document,
        documentName: document.name,
        instance: this.hocuspocus,
        requestHeaders: {},
        requestParameters: new URLSearchParams(),
        socketId: 'quire-live',
      },
      true,
    );
  }

  /**
   * An API edit (or an import, or a revert) of a change request someone is editing live moves its head past
   * the revision the live document was last written to: the document is written at once, which merges that
   * edit in (three-way from the last stored state) and brings it to everyone in the page.
   */
  private async pollHeads(): Promise<void> {
    if (this.closed || this.hocuspocus.documents.size === 0) return;
    // First the trees: a page deleted meanwhile is stopped for whoever has it open, the others told of the change.
    await this.trees.follow();
    const names = [...this.hocuspocus.documents.keys()];
    try {
      const rows = await this.services.db
        .selectFrom('live_documents')
        .innerJoin('change_requests', 'change_requests.id', 'live_documents.change_request_id')
        .select(['live_documents.name', 'live_documents.base_revision', 'change_requests.revision'])
        .where('live_documents.name', 'in', names)
        .execute();
      for (const row of rows) {
        if (row.base_revision === row.revision || this.writing.has(row.name)) continue;
        const document = this.hocuspocus.documents.get(row.name);
        if (document) await this.store(document).catch(() => undefined);
      }
      // Stored updates nobody wrote in time: a write skipped because another process held the document's
      // Redis lock (and then stopped, or was killed holding it) is not retried by Hocuspocus, so the text
      // acknowledged before would wait for the next keystroke. Written here, at most every few seconds each.
      const config = this.services.config.live;
      const before = new Date(this.services.clock.now().getTime() - config.maxWaitMs - config.idleMs).toISOString();
      const stale = await this.services.db.selectFrom('live_updates').select('document').distinct().where('document', 'in', names).where('created_at', '<', before).execute();
      for (const { document: name } of stale) {
        if (this.writing.has(name) || (this.forcedAt.get(name) ?? 0) > Date.now() - 5000) continue;
        this.forcedAt.set(name, Date.now());
        const document = this.hocuspocus.documents.get(name);
        if (document) await this.store(document).catch(() => undefined);
      }
    } catch (error) {
      this.log.warn({ err: error }, 'live documents: could not compare with their change requests');
    }
  }

  /** Re-checks every connection's session or token and access; a revoked or changed one is closed. */
  private async recheck(): Promise<void> {
    if (this.closed) return;
    if (this.rechecking) {
      this.recheckAgain = true;
      return;
    }
    this.rechecking = true;
    try {
      do {
        this.recheckAgain = false;
        await this.recheckOnce();
      } while (this.recheckAgain && !this.closed);
    } finally {
      this.rechecking = false;
    }
  }

  private async recheckOnce(): Promise<void> {
    this.metrics.rechecks.inc();
    for (const document of this.hocuspocus.documents.values()) {
      for (const { connection } of document.getConnections().map((connection) => ({ connection }))) {
        const live = connection.context as LiveContext | undefined;
        if (!live?.credentials) continue;
        try {
          // A re-check asks the database, not the token cache: the notice of a revoked token may reach this
          // process before the token cache's own notice does.
          const token = live.credentials.token.trim();
          if (token) this.tokens.forget(hashToken(token));
          const actor = await authenticateLive(this.services, this.tokens, live.credentials);
          const grant = await authorizeLive(this.services, actor, live.name);
          if ((grant.readOnly || !('pageId' in live.name)) !== live.readOnly) connection.close({ code: 4409, reason: 'permissions changed: reconnect' } as never);
        } catch (error) {
          const refusal = refusalOf(error);
          if (refusal.code === 4500) continue;
          // Refused now, allowed when it opened: the person's access was taken away (removed from the
          // organization or the space). Said as such: the API's "No space …" names an id the person never saw.
          const reason = refusal.code === 4403 || refusal.code === 4404 ? LOST_ACCESS : refusal.reason;
          connection.close({ code: refusal.code, reason } as never);
        }
      }
    }
  }
}

/** The Yjs update a Hocuspocus message carries (a sync step 2 or an update), or null for any other message. */
export function syncUpdateOf(message: Uint8Array): Uint8Array | null {
  try {
    let offset = 0;
    const readVarUint = (): number => {
      let value = 0;
      let shift = 0;
      for (;;) {
        const byte = message[offset++];
        if (byte === undefined) throw new RangeError('truncated message');
        value += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) return value;
        shift += 7;
      }
    };
    const nameLength = readVarUint();
    offset += nameLength;
    if (readVarUint() !== SYNC) return null;
    const type = readVarUint();
    if (type !== SYNC_STEP_2 && type !== SYNC_UPDATE) return null;
    const length = readVarUint();
    if (offset + length > message.byteLength) throw new RangeError('truncated message');
    return message.subarray(offset, offset + length);
  } catch {
    throw new LiveRefusal(4400, 'malformed message');
  }
}
