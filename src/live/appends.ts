import type { AppServices } from '../context.ts';
import { createContext } from '../context.ts';
import { appendUpdates, type UpdateToStore } from './store.ts';

interface Waiting {
  update: UpdateToStore;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Stores the updates clients send in batches: those received in one event-loop turn (and, while a batch is
 * being stored, all that arrive meanwhile) go to the database together, in the order they arrived. Each
 * caller's promise settles once its batch is committed, so an update is still stored before it is applied
 * and acknowledged (a process killed at any moment has lost no acknowledged update), but 50 people typing
 * cost one insert a turn instead of one each (decision 0118). One batch is stored at a time: batches
 * commit, and their updates are applied, in the order they were received.
 */
export class UpdateBatcher {
  private queue: Waiting[] = [];
  private scheduled = false;
  private storing = false;
  /** Batches stored and updates in them (for the bench and /metrics). */
  batches = 0;
  stored = 0;

  constructor(private readonly services: AppServices) {}

  /** Settles once `update` is stored (or rejects with the error that stored none of its batch). */
  append(update: UpdateToStore): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ update, resolve, reject });
      if (this.scheduled || this.storing) return;
      this.scheduled = true;
      // After the rest of this turn's I/O: every message already read joins the batch.
      setImmediate(() => void this.store());
    });
  }

  private async store(): Promise<void> {
    this.scheduled = false;
    this.storing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue;
        this.queue = [];
        try {
          await appendUpdates(createContext(this.services, null), batch.map((waiting) => waiting.update));
          this.batches++;
          this.stored += batch.length;
          for (const waiting of batch) waiting.resolve();
        } catch (error) {
          for (const waiting of batch) waiting.reject(error);
        }
      }
    } finally {
      this.storing = false;
    }
  }
}
