import { LruCache } from '../../lru.ts';

/**
 * Serialized page trees. A tree is immutable (named by its root hash), and its presentation depends only on
 * where it is shown (the base of its `urls`) and on the `metadata` option, so the JSON of `content/pages` is
 * made once per key and sent as is afterwards: serializing a 1,000-page tree through the response schema
 * costs far more than reading it (docs/performance.md). Weighed by length: at most 32 MB of JSON.
 */
const serialized = new LruCache<string, string>(500, 32 * 1024 * 1024);

/** The JSON body under `key`, made by `make` on a miss. */
export function serializedPages(key: string, make: () => string): string {
  let body = serialized.get(key);
  if (body === undefined) {
    body = make();
    serialized.set(key, body, body.length);
  }
  return body;
}
