import { useEffect, useState } from 'preact/hooks';

/**
 * The workspace's one cache of server data: answers kept by key (`space:<id>`, `cr:<space>:<id>:content` …),
 * shared by every screen that asks, and invalidated by key prefix after a write, so no screen keeps its own
 * copy. A screen reads with `useQuery(key, load)`; a write calls `invalidate(prefix)` when it succeeds.
 */
interface Entry {
  promise: Promise<unknown>;
  value?: unknown;
  error?: Error;
  settled: boolean;
}

const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function load(key: string, loader: () => Promise<unknown>): Entry {
  const entry: Entry = { promise: Promise.resolve(), settled: false };
  entry.promise = loader().then(
    (value) => {
      entry.value = value;
      entry.settled = true;
      notify();
    },
    (error: unknown) => {
      entry.error = error instanceof Error ? error : new Error(String(error));
      entry.settled = true;
      notify();
    },
  );
  entries.set(key, entry);
  return entry;
}

/** Drops every answer whose key starts with `prefix`; screens showing them load them again. */
export function invalidate(prefix: string): void {
  for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
  notify();
}

/** Puts an answer a write returned into the cache, so the screen shows it without asking again. */
export function prime(key: string, value: unknown): void {
  entries.set(key, { promise: Promise.resolve(), value, settled: true });
  notify();
}

export interface QueryState<T> {
  data?: T;
  error?: Error;
  loading: boolean;
}

export function useQuery<T>(key: string | null, loader: () => Promise<T>): QueryState<T> {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  if (key === null) return { loading: false };
  let entry = entries.get(key);
  if (!entry) entry = load(key, loader);
  return { data: entry.value as T | undefined, error: entry.error, loading: !entry.settled };
}
