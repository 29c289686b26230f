import type { Context, EventBus } from './context.ts';
import type { DomainEventMap } from './events.ts';

/** A subscriber to one domain event: runs in the transaction of the change that emitted it. */
export type DomainEventListener<E> = (tx: Context, event: E) => Promise<void>;

export type DomainEventListeners = { [K in keyof DomainEventMap]?: Array<DomainEventListener<DomainEventMap[K]>> };

/** The event bus of one app: its listeners are given once, when the app is assembled (src/services.ts). */
export class DomainEvents implements EventBus {
  constructor(private readonly listeners: DomainEventListeners = {}) {}

  /** Adds a listener of `kind` after those it already has (for listeners of many kinds, such as webhooks). */
  listen<K extends keyof DomainEventMap>(kind: K, listener: DomainEventListener<DomainEventMap[K]>): this {
    const listeners = (this.listeners[kind] ?? []) as Array<DomainEventListener<DomainEventMap[K]>>;
    (this.listeners as Record<string, unknown>)[kind] = [...listeners, listener];
    return this;
  }

  /** Tells every listener of `kind`, one after another, in the caller's transaction. */
  async emit<K extends keyof DomainEventMap>(tx: Context, kind: K, event: DomainEventMap[K]): Promise<void> {
    for (const listener of this.listeners[kind] ?? []) await listener(tx, event);
  }
}
