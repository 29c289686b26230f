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
  /** Invalidated: shown as it is until the screen that reads it has loaded it again. */
  stale?: boolean;
}

const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();
/** Counts changes, so a screen that subscribes after rendering sees one it missed in between. */
let version = 0;

function notify(): void {
  version++;
  for (const listener of listeners) listener();
}

function load(key: string, loader: () => Promise<unknown>, previous?: Entry): Entry {
  // A reload keeps the previous answer on screen (a screen never blanks, nor loses what it holds, while it reloads).
  const entry: Entry = { promise: Promise.resolve(), settled: false, value: previous?.value };
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

/** Marks every answer whose key starts with `prefix` as stale; the screens showing them load them again. */
export function invalidate(prefix: string): void {
  for (const [key, entry] of entries) if (key.startsWith(prefix)) entry.stale = true;
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
  const rendered = version;
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    // An answer that arrived between this render and this subscription.
    if (version !== rendered) listener();
    return () => void listeners.delete(listener);
  }, []);
  if (key === null) return { loading: false };
  let entry = entries.get(key);
  if (!entry || (entry.stale && entry.settled)) entry = load(key, loader, entry);
  return { data: entry.value as T | undefined, error: entry.error, loading: !entry.settled };
}
