/**
 * JSON with object keys sorted, so that the same value always gives the same text (and hash). A module of its
 * own, free of the database, so that the code a worker thread runs (src/workers/) can use it without loading
 * the database layer.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
