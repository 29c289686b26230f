import pg from 'pg';
import { JOBS_CHANNEL } from './queue.ts';

export interface JobListener {
  close(): Promise<void>;
}

/**
 * Wakes a worker when any process enqueues a job (PostgreSQL LISTEN on the jobs channel), so a job starts
 * at once instead of at the next poll. Polling stays as the fallback: when the connection drops, the
 * listener says so and connects again after `retryMs`, and no job is lost meanwhile, only later.
 */
export function listenForJobs(databaseUrl: string, wake: () => void, onError: (error: unknown) => void, retryMs = 5000): JobListener {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', () => wake());
    next.on('error', (error) => {
      onError(error);
      reconnect(next);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${JOBS_CHANNEL}`);
      if (closed) {
        await next.end();
        return;
      }
      client = next;
      wake(); // jobs may have come while this listener was away
    } catch (error) {
      onError(error);
      reconnect(next);
    }
  };

  const reconnect = (broken: pg.Client): void => {
    if (client === broken) client = null;
    broken.end().catch(() => undefined); // the connection is already broken; ending it only frees the socket
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, retryMs);
    retry.unref();
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      if (current) await current.end();
    },
  };
}
