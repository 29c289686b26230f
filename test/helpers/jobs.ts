import { defineJob, handle, type JobDefinition, type JobHandler, type JobRun } from '../../src/jobs/types.ts';

/** A job kind made for a test: its definition (to enqueue) with its handler (to register) beside it. */
export function testJob<Payload>(spec: JobDefinition<Payload> & { run: JobRun<Payload> }): JobDefinition<Payload> & { handler: JobHandler } {
  const { run, ...options } = spec;
  const definition = defineJob<Payload>(options);
  return { ...definition, handler: handle(definition, run) };
}
