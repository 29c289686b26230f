/** The durable job queue. Column conventions: src/db/tables/columns.ts. */

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  /** 'pending' | 'running' | 'done' | 'failed' */
  status: string;
  singleton_key: string | null;
  /** Jobs of one queue key run one at a time, in enqueue order (src/jobs/queue.ts). */
  queue_key: string | null;
  attempts: number;
  max_attempts: number;
  run_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** The tables of this domain, by name: part of `DB` (src/db/types.ts). */
export interface JobsTables {
  jobs: JobsTable;
}
