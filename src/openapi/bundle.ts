import { SpecProcessingError } from './errors.ts';
import { parseDescription, type SpecObject } from './parse.ts';

/**
 * Bundling: every external `$ref` (another file, another URL) is fetched, at most MAX_REFERENCE_FETCHES
 * documents, and its target inlined, so a version is one self-contained document. References inside the
 * entry document stay as they are. A target that refers back to itself through external references (a
 * recursive schema split over files) is hoisted into the entry's components and referenced from there.
 */

export const MAX_REFERENCE_FETCHES = 40;

/** Reads one referenced document (through the address guard); returns its text and final URL. */
export type ReferenceLoader = (url: string) => Promise<{ text: string; url: string }>;

function pointerTokens(fragment: string): string[] {
  const pointer = decodeURIComponent(fragment);
  if (pointer === '' || pointer === '/') return pointer === '/' ? [''] : [];
  if (!pointer.startsWith('/')) throw new SpecProcessingError('PARSE_ERROR', `The $ref fragment "#${fragment}" is not a JSON pointer (it must start with "/").`);
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function resolvePointer(doc: unknown, fragment: string, ref: string): unknown {
  let node = doc;
  for (const token of pointerTokens(fragment)) {
    if (node && typeof node === 'object' && token in (node as object)) node = (node as Record<string, unknown>)[token];
    else throw new SpecProcessingError('PARSE_ERROR', `The $ref "${ref}" points to nothing: its target has no "${token}". Fix the reference.`);
  }
  return node;
}

export async function bundleExternalReferences(root: SpecObject, rootUrl: string | null, load: ReferenceLoader): Promise<SpecObject> {
  const documents = new Map<string, Promise<unknown>>();
  const stack = new Set<string>();
  const hoisted = new Map<string, string>();
  const version2 = typeof root.swagger === 'string';
  let fetches = 0;

  const documentAt = (url: string): Promise<unknown> => {
    let doc = documents.get(url);
    if (!doc) {
      fetches++;
      if (fetches > MAX_REFERENCE_FETCHES) {
        throw new SpecProcessingError('PARSE_ERROR', `The description refers to more than ${MAX_REFERENCE_FETCHES} other documents; bundle it into fewer files.`);
      }
      doc = load(url).then(
        ({ text, url: finalUrl }) => parseDescription(text, `The referenced document ${finalUrl}`),
        (error: unknown) => {
          // A reference that cannot be read is an unresolvable $ref; a slow server stays a timeout.
          if (error instanceof SpecProcessingError && error.code === 'FETCH_ERROR') {
            throw new SpecProcessingError('PARSE_ERROR', `A $ref of the description cannot be resolved: ${error.message}`);
          }
          throw error;
        },
      );
      documents.set(url, doc);
    }
    return doc;
  };

  const hoist = (key: string): string => {
    let name = hoisted.get(key);
    if (!name) {
      name = `external-${hoisted.size + 1}`;
      hoisted.set(key, name);
    }
    return version2 ? `#/definitions/${name}` : `#/components/schemas/${name}`;
  };
  const hoistedValues = new Map<string, unknown>();

  async function inline(key: string, target: unknown, docUrl: string): Promise<unknown> {
    if (stack.has(key)) return { $ref: hoist(key) };
    stack.add(key);
    const value = await walk(structuredClone(target), docUrl);
    stack.delete(key);
    if (hoisted.has(key)) {
      hoistedValues.set(hoisted.get(key)!, value);
      return { $ref: hoist(key) };
    }
    return value;
  }

  async function walk(node: unknown, docUrl: string | null): Promise<unknown> {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) node[i] = await walk(node[i], docUrl);
      return node;
    }
    if (!node || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    const ref = record.$ref;
    if (typeof ref === 'string' && !(ref.startsWith('#') && docUrl === rootUrl)) {
      const [address, fragment = ''] = ref.split('#', 2);
      if (address === '') {
        // A local reference inside a referenced document: inline its target from that document.
        return inline(`${docUrl}#${fragment}`, resolvePointer(await documentAt(docUrl!), fragment, ref), docUrl!);
      }
      let target: URL;
      try {
        target = rootUrl === null && docUrl === null ? new URL(address) : new URL(address, docUrl ?? rootUrl ?? undefined);
      } catch {
        throw new SpecProcessingError('PARSE_ERROR', `The $ref "${ref}" is relative, and a description given as text has no address to resolve it from: give the description by URL, or bundle it into one file.`);
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new SpecProcessingError('PARSE_ERROR', `The $ref "${ref}" uses "${target.protocol}", which Quire does not fetch: refer to http(s) URLs or bundle the description into one file.`);
      }
      const url = target.href.split('#')[0];
      return inline(`${url}#${fragment}`, resolvePointer(await documentAt(url), fragment, ref), url);
    }
    for (const key of Object.keys(record)) record[key] = await walk(record[key], docUrl);
    return record;
  }

  const bundled = (await walk(root, rootUrl)) as SpecObject;
  if (hoistedValues.size) {
    if (version2) bundled.definitions = { ...(bundled.definitions as object), ...Object.fromEntries(hoistedValues) };
    else {
      const components = (bundled.components ?? {}) as Record<string, unknown>;
      components.schemas = { ...(components.schemas as object), ...Object.fromEntries(hoistedValues) };
      bundled.components = components;
    }
  }
  return bundled;
}
