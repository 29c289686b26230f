/**
 * The version of the document model a live page is shared in: a fingerprint of the editor's schema (every
 * node and mark, with the names of its attributes). The browser sends its own with the live socket
 * (`?model=`); the server compares it with the schema it reads and writes the shared document with
 * (src/live/model.ts) and refuses a browser whose model differs, as during a rolling upgrade, when a tab
 * opened before the upgrade meets a process after it (or the other way round). Were it let in, its editor
 * would drop from the shared document every node its schema does not know, for everyone. Refused, it keeps
 * what it typed (in this browser's copy of the document) and says to reload the page. No DOM: the server
 * runs it too.
 */

/** What a ProseMirror schema holds that the fingerprint reads. */
export interface ModelSchema {
  nodes: Record<string, { spec: { attrs?: Record<string, unknown> } }>;
  marks: Record<string, { spec: { attrs?: Record<string, unknown> } }>;
}

/** The URL parameter of the live socket that carries the browser's model version. */
export const MODEL_PARAMETER = 'model';

/** Eight hex digits, the same for two schemas with the same nodes, marks and attribute names. */
export function modelVersionOf(schema: ModelSchema): string {
  const entries = (kind: string, types: ModelSchema['nodes']) => Object.entries(types).map(([name, type]) => `${kind}:${name}(${Object.keys(type.spec.attrs ?? {}).sort().join(',')})`);
  const text = [...entries('node', schema.nodes), ...entries('mark', schema.marks)].sort().join(';');
  // FNV-1a, 32 bits: a fingerprint to compare, not a secret.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
