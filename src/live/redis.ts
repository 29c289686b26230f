import type { Document, onAwarenessUpdatePayload, onChangePayload } from '@hocuspocus/server';
import { Redis } from '@hocuspocus/extension-redis';
import { encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { envelope } from './fanout.ts';

/** Hocuspocus's message types (the outer envelope), and y-protocols' first sync step. */
const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;
const SYNC_STEP_1 = 0;

/**
 * Hocuspocus's Redis extension, publishing once per document and event-loop turn (decision 0118). The
 * extension publishes, for every update a process applies, the document's whole state vector (a first sync
 * step: the other processes answer with what they lack), and for every presence change an awareness
 * message: with 50 people typing, hundreds of publishes a second of which all but the last of a turn say
 * nothing new. Here the changes of a turn are gathered and published after it: one state vector per changed
 * document (the latest, which covers every update of the turn) and one awareness message per document with
 * every person whose presence changed. Locks, subscriptions and what is received are the extension's own.
 *
 * Its two connections also carry the tree notices (decision 0140, step 8): a process that answered a write to a
 * change request publishes the change request's id on `quire-live:trees`, which every process subscribes to;
 * the others' tree followers compare that change request's tree at once when they have it open.
 */
export class TurnRedis extends Redis {
  private readonly changed = new Map<string, Document>();
  private readonly presence = new Map<string, { document: Document; clients: Set<number> }>();
  private scheduled = false;
  /** Publishes made (for tests and figures). */
  published = 0;
  /** The channel of tree notices (decision 0140, step 8): `quire-live:trees`, no document's (their names hold slashes). */
  private readonly treesChannel: string;
  /** Called with the change request of each tree notice another process published. */
  onTreeNotice: (changeRequestId: string) => void = () => undefined;
  /** Tree notices published and received (for tests and figures). */
  readonly treeNotices = { published: 0, received: 0 };

  constructor(
    configuration: ConstructorParameters<typeof Redis>[0],
    private readonly log: { warn(object: object, message: string): void },
  ) {
    super(configuration);
    this.treesChannel = `${this.configuration.prefix}:trees`;
    this.followTreeNotices();
  }

  /**
   * Receives the tree notices on the extension's own subscriber connection: what arrives on the trees channel
   * goes to `onTreeNotice`, everything else to the extension's handler, as before. When this extension is not
   * the one Quire was written against (its handler not found), no notice is received: the head poll still
   * tells every process within its second.
   */
  private followTreeNotices(): void {
    const documents = (this as unknown as { handleIncomingMessage?: (channel: Buffer, data: Buffer) => Promise<void> }).handleIncomingMessage;
    if (typeof documents !== 'function' || !this.sub.listeners('messageBuffer').includes(documents)) {
      this.log.warn({}, 'live: this Hocuspocus Redis extension is not the one Quire was written against; tree changes reach other processes at their head poll');
      return;
    }
    this.sub.off('messageBuffer', documents);
    this.sub.on('messageBuffer', (channel: Buffer, data: Buffer) => {
      if (channel.toString('utf8') === this.treesChannel) this.receiveTreeNotice(data);
      else void documents(channel, data);
    });
    // ioredis subscribes again after a reconnection; a notice lost meanwhile waits for the poll.
    this.sub.subscribe(this.treesChannel).catch((error: unknown) => this.log.warn({ err: error }, 'live: could not subscribe to tree notices; tree changes reach this process at its head poll'));
  }

  /**
   * Tells the other processes that a change request's head may have moved (a write answered here): each one
   * with a document of it open compares its tree at once. The notice is this process's identifier and the id.
   */
  publishTreeNotice(changeRequestId: string): void {
    this.treeNotices.published++;
    this.pub.publish(this.treesChannel, Buffer.concat([this.messagePrefix, Buffer.from(changeRequestId, 'utf8')])).catch((error: unknown) => this.log.warn({ err: error }, 'live: a publish to Redis failed'));
  }

  private receiveTreeNotice(data: Buffer): void {
    const length = data[0] ?? 0;
    // This process's own notices: it compared when it answered the write.
    if (data.toString('utf8', 1, length + 1) === this.configuration.identifier) return;
    const changeRequestId = data.toString('utf8', length + 1);
    if (!changeRequestId || changeRequestId.length > 100) return;
    this.treeNotices.received++;
    this.onTreeNotice(changeRequestId);
  }

  override async onChange(data: onChangePayload): Promise<void> {
    // What came through Redis is not published back (the extension's own rule).
    if (data.transactionOrigin === this.redisTransactionOrigin) return;
    this.changed.set(data.documentName, data.document);
    this.schedule();
  }

  override async onAwarenessUpdate({ documentName, document, added, updated, removed }: onAwarenessUpdatePayload): Promise<undefined> {
    // As the extension: nothing is published for a document nobody is connected to here.
    if (!document?.connections.size) return undefined;
    const entry = this.presence.get(documentName) ?? { document, clients: new Set<number>() };
    for (const id of [...added, ...updated, ...removed]) entry.clients.add(id);
    this.presence.set(documentName, entry);
    this.schedule();
    return undefined;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const changed = [...this.changed];
    const presence = [...this.presence];
    this.changed.clear();
    this.presence.clear();
    for (const [name, document] of changed) {
      if (!document.isDestroyed) this.publish(name, envelope(name, [MESSAGE_SYNC, SYNC_STEP_1], Y.encodeStateVector(document)));
    }
    for (const [name, { document, clients }] of presence) {
      if (!document.isDestroyed) this.publish(name, envelope(name, [MESSAGE_AWARENESS], encodeAwarenessUpdate(document.awareness, [...clients])));
    }
  };

  /** Publishes on the document's channel, as the extension does (its key, its identifier before the message). */
  private publish(documentName: string, message: Uint8Array): void {
    this.published++;
    this.pub.publish(`${this.configuration.prefix}:${documentName}`, Buffer.concat([this.messagePrefix, message])).catch((error: unknown) => this.log.warn({ err: error }, 'live: a publish to Redis failed'));
  }
}
