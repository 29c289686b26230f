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
 */
export class TurnRedis extends Redis {
  private readonly changed = new Map<string, Document>();
  private readonly presence = new Map<string, { document: Document; clients: Set<number> }>();
  private scheduled = false;
  /** Publishes made (for tests and figures). */
  published = 0;

  constructor(
    configuration: ConstructorParameters<typeof Redis>[0],
    private readonly onError: (error: unknown) => void,
  ) {
    super(configuration);
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
    this.pub.publish(`${this.configuration.prefix}:${documentName}`, Buffer.concat([this.messagePrefix, message])).catch(this.onError);
  }
}
