import type { JobDefinition } from './types.ts';

/** The kinds of job a worker knows how to run. */
export class JobRegistry {
  private readonly definitions = new Map<string, JobDefinition<never>>();

  constructor(definitions: Array<JobDefinition<never>> = []) {
    for (const definition of definitions) this.define(definition);
  }

  define<P>(definition: JobDefinition<P>): this {
    if (this.definitions.has(definition.kind)) throw new Error(`A job kind "${definition.kind}" is already defined.`);
    this.definitions.set(definition.kind, definition as unknown as JobDefinition<never>);
    return this;
  }

  get(kind: string): JobDefinition<unknown> | undefined {
    return this.definitions.get(kind) as JobDefinition<unknown> | undefined;
  }
}
