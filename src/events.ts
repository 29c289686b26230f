import type { Context } from './context.ts';

/**
 * Domain events: what happened, told to whoever subscribed when the app was assembled (src/services.ts).
 * A listener runs inside the transaction of the change that emits the event, so the follow-up work it
 * enqueues (indexing, Git export, translation) commits together with the change or not at all. The code
 * that emits an event does not know who listens.
 */
export interface DomainEventMap {
  /** A space's current revision changed (an edit, a merge, an import, a template, a duplicate). */
  'space-content-changed': SpaceContentChanged;
}

export interface SpaceContentChanged {
  spaceId: string;
  /** The new current revision. */
  revisionId: string;
  /** The revision it replaced; null for a space that starts with content (a duplicate). */
  previousRevisionId: string | null;
}

export type DomainEventListener<E> = (tx: Context, event: E) => Promise<void>;

export type DomainEventListeners = { [K in keyof DomainEventMap]?: Array<DomainEventListener<DomainEventMap[K]>> };

export class DomainEvents {
  constructor(private readonly listeners: DomainEventListeners = {}) {}

  /** Tells every listener of `kind`, one after another, in the caller's transaction. */
  async emit<K extends keyof DomainEventMap>(tx: Context, kind: K, event: DomainEventMap[K]): Promise<void> {
    for (const listener of this.listeners[kind] ?? []) await listener(tx, event);
  }
}
