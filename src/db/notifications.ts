import pg from 'pg';

export interface ChannelListener {
  close(): Promise<void>;
}

/**
 * Listens on a PostgreSQL notification channel on a connection of its own, and calls `onNotification` with
 * each payload. When the connection drops, it says so (`onError`) and connects again after `retryMs`;
 * `onConnect` runs after every (re)connection, so a caller can make up for notifications it may have missed
 * while away. The job queue (src/jobs/listen.ts) and token revocation listen through it.
 */
export function listenOnChannel(
  databaseUrl: string,
  channel: string,
  handlers: { onNotification: (payload: string) => void; onError: (error: unknown) => void; onConnect?: () => void },
  retryMs = 5000,
): ChannelListener {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => handlers.onNotification(message.payload ?? ''));
    next.on('error', (error) => {
      handlers.onError(error);
      reconnect(next);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      if (closed) {
        await next.end();
        return;
      }
      client = next;
      handlers.onConnect?.();
    } catch (error) {
      handlers.onError(error);
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
