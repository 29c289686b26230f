import type { JobHandlers } from '../context.ts';
import type { JobHandler } from './types.ts';

/** The kinds of job a worker knows how to run: each definition bound to its handler (`handle`). */
export class JobRegistry implements JobHandlers {
  private readonly handlers = new Map<string, JobHandler>();

  constructor(handlers: JobHandler[] = []) {
    for (const handler of handlers) this.define(handler);
  }

  define(handler: JobHandler): this {
    const { kind } = handler.definition;
    if (this.handlers.has(kind)) throw new Error(`A job kind "${kind}" is already defined.`);
    this.handlers.set(kind, handler);
    return this;
  }

  get(kind: string): JobHandler | undefined {
    return this.handlers.get(kind);
  }
}
