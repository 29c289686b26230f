import * as Y from 'yjs';
import { prosemirrorJSONToYXmlFragment, updateYFragment, yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import type { Document } from '../content/markdown/index.ts';
import { LiveRefusal } from './limits.ts';

/**
 * The page as a Yjs document, in the editor's own model: the browser's editor (web/src/editor/) binds its
 * ProseMirror document to the fragment `FIELD`, and the server reads and writes that fragment with the same
 * schema and the same document ↔ editor mapping (`web/src/editor/convert.ts`), so a page means the same on
 * both sides and nothing is mapped twice. That mapping is browser code typed against the DOM; it is loaded
 * here at run time (it needs no DOM to run), behind the small interface below.
 */

/** The fragment TipTap's Collaboration extension binds (its default `field`). */
export const FIELD = 'default';

export interface EditorJSON {
  type?: string;
  attrs?: Record<string, unknown>;
  content?: EditorJSON[];
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
  text?: string;
}

interface EditorMapping {
  documentToEditor(document: Document | undefined): EditorJSON;
  editorToDocument(content: EditorJSON, original?: Document): Document;
}

interface PMSchema {
  nodes: Record<string, { spec: { attrs?: Record<string, unknown> } }>;
  marks: Record<string, { spec: { attrs?: Record<string, unknown> } }>;
  nodeFromJSON(json: unknown): unknown;
}

let loaded: Promise<{ mapping: EditorMapping; schema: PMSchema }> | undefined;

/** The editor's mapping and ProseMirror schema, loaded once. */
export function editorModel(): Promise<{ mapping: EditorMapping; schema: PMSchema }> {
  loaded ??= (async () => {
    const convertPath = new URL('../../web/src/editor/convert.ts', import.meta.url).href;
    const schemaPath = new URL('../../web/src/editor/schema.ts', import.meta.url).href;
    const mapping = (await import(convertPath)) as EditorMapping;
    const { schemaExtensions } = (await import(schemaPath)) as { schemaExtensions(): unknown[] };
    const { getSchema } = (await import('@tiptap/core' as string)) as { getSchema(extensions: unknown[]): PMSchema };
    return { mapping, schema: getSchema(schemaExtensions()) };
  })();
  return loaded;
}

/** A new Yjs document holding `document` (the page as the API reads it). */
export async function yDocFor(document: Document | undefined): Promise<Y.Doc> {
  const { mapping, schema } = await editorModel();
  const doc = new Y.Doc();
  prosemirrorJSONToYXmlFragment(schema as never, mapping.documentToEditor(document), doc.getXmlFragment(FIELD));
  return doc;
}

/**
 * The editor content a Yjs document holds at this moment, read synchronously (no await between the caller's
 * look at the document and this read): `documentOfContent` makes it the API's document later.
 */
export function editorContentOf(doc: Y.Doc): EditorJSON {
  return yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(FIELD)) as EditorJSON;
}

/**
 * Editor content as the API's document. No stored document is passed for the members the editor does not
 * model: the only one the mapping carries over is `data`, empty in every document read from Markdown.
 */
export async function documentOfContent(content: EditorJSON): Promise<Document> {
  return (await editorModel()).mapping.editorToDocument(content);
}

/** The editor content a document maps to, for comparisons. */
export async function editorJSONOf(document: Document | undefined): Promise<EditorJSON> {
  return (await editorModel()).mapping.documentToEditor(document);
}

/**
 * The Yjs update that turns the document as it was at `at` (an encoded state) into `document`: computed on a
 * copy of that state, as a diff of the fragment (unchanged blocks and text keep their Yjs items), so applied
 * to the live document — which may have moved on since `at` — it merges with whatever was typed meanwhile
 * instead of overwriting it. Null when `document` is what the state already holds.
 */
export async function updateTowards(at: Uint8Array, document: Document): Promise<Uint8Array | null> {
  const { mapping, schema } = await editorModel();
  const copy = new Y.Doc();
  Y.applyUpdate(copy, at);
  const before = Y.encodeStateVector(copy);
  const target = schema.nodeFromJSON(mapping.documentToEditor(document));
  updateYFragment(copy, copy.getXmlFragment(FIELD), target, { mapping: new Map(), isOMark: new Map() });
  const update = Y.encodeStateAsUpdate(copy, before);
  copy.destroy();
  // An update with no structs and an empty delete set is 2 bytes long (0 structs, 0 deletions).
  return update.length > 2 ? update : null;
}

/** The document model version this process shares pages in (web/src/live/model-version.ts). */
export async function modelVersion(): Promise<string> {
  const { modelVersionOf } = await modelVersionModule();
  return modelVersionOf((await editorModel()).schema);
}

interface ModelVersionModule {
  MODEL_PARAMETER: string;
  modelVersionOf(schema: unknown): string;
}

/** The browser's fingerprint module, loaded like the editor's schema above (the server shares it, not a copy). */
function modelVersionModule(): Promise<ModelVersionModule> {
  return import(new URL('../../web/src/live/model-version.ts', import.meta.url).href) as Promise<ModelVersionModule>;
}

/**
 * Refuses a browser whose editor has another document model than this process (`sent`, the socket's
 * `model` parameter): its editor would drop from the shared page every node its schema lacks. A client that
 * sends none (a script, a Node client writing the fragment itself) is not checked.
 */
export async function checkModelVersion(parameters: URLSearchParams): Promise<void> {
  const sent = parameters.get((await modelVersionModule()).MODEL_PARAMETER);
  if (sent === null || sent === (await modelVersion())) return;
  throw new LiveRefusal(4426, 'Quire was updated since this page was opened: reload the page to edit it live (what you typed is kept)');
}
