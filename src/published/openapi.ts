/**
 * The published reader's API reference: the `RenderLinks.openApi` hook of a page (src/published/render/
 * context.ts). Before a page is rendered, the OpenAPI specs its blocks name (by slug, or a legacy block by
 * the URL a spec of the organization is fetched from) are loaded at their latest version; each block then
 * renders synchronously. A block naming a missing, unprocessed or failed spec, or an operation the spec does
 * not have, shows a notice, never an error page. Page caches include `openApiStamp` (the latest version of
 * every spec of the organization), so a new version re-renders the pages.
 */
import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';
import { parseMarkdown, type Document, type DocumentBlock } from '../content/markdown/index.ts';
import { LruCache } from '../lru.ts';
import { findOperation, operationAnchor, operationTitle, renderOperation, renderSchemas, webhookAnchor } from './openapi-render.ts';
import { isHidden, isObject, type Json, type SpecDocument } from './openapi-schema.ts';
import { escapeHtml, renderDocument } from './render/index.ts';
import type { StoredFile } from '../content/revisions.ts';
import { SpecProcessingError } from '../openapi/errors.ts';
import { declaredVersion, parseDescription } from '../openapi/parse.ts';
import { MAX_DESCRIPTION_BYTES } from '../openapi/process.ts';
import { onAccessChanged } from '../db/memo.ts';

type Ctx = Pick<Context, 'db'>;
type FileCtx = Pick<Context, 'db' | 'blobs'>;
type OpenApiBlock = Extract<DocumentBlock, { type: 'swagger' | 'openapi-operation' | 'openapi-schemas' | 'openapi-webhook' }>;

/** Upgraded descriptions by version id (a version never changes), weighed by their JSON length: at most 256 MB. */
const documents = new LruCache<string, Json>(200, 256 * 1024 * 1024);

function isOpenApiBlock(block: DocumentBlock): block is OpenApiBlock {
  return block.type === 'swagger' || block.type === 'openapi-operation' || block.type === 'openapi-schemas' || block.type === 'openapi-webhook';
}

/** Every OpenAPI block of some documents, at any depth. */
export function openApiBlocks(documents: Iterable<Document>): OpenApiBlock[] {
  const found: OpenApiBlock[] = [];
  const walk = (nodes: unknown[]) => {
    for (const node of nodes) {
      if (!isObject(node)) continue;
      if (node.object === 'block' && isOpenApiBlock(node as unknown as DocumentBlock)) found.push(node as unknown as OpenApiBlock);
      if (Array.isArray(node.nodes)) walk(node.nodes);
      if (Array.isArray(node.fragments)) walk(node.fragments);
    }
  };
  for (const document of documents) walk(document.nodes ?? []);
  return found;
}

/** How a block names its spec: `slug:petstore`, `url:https://…`, or `file:{fileId}` (a file of the revision). */
function specKey(block: OpenApiBlock): string | null {
  const ref = block.data.ref as { kind: string; spec?: string; url?: string; file?: string };
  if (ref.kind === 'openapi' && ref.spec) return `slug:${ref.spec}`;
  if (ref.kind === 'url' && ref.url) return `url:${ref.url}`;
  if (ref.kind === 'file' && ref.file) return `file:${ref.file}`;
  return null;
}

/**
 * A description uploaded as a file of the revision (`{% openapi src="../.gitbook/assets/api.yaml" %}`):
 * read from blob storage, parsed, checked and upgraded like a version; cached by the file's content hash.
 * Its external references are not fetched (a file has no address to resolve them from).
 */
async function loadFileSpec(ctx: FileCtx, file: StoredFile): Promise<LoadedSpec> {
  const key = `blob:${file.blob}`;
  const cached = documents.get(key);
  if (cached) return { slug: file.name, doc: cached, error: null };
  if (file.size > MAX_DESCRIPTION_BYTES) return { slug: file.name, doc: null, error: 'the file is larger than 20 MB' };
  const stream = await ctx.blobs.open(file.blob);
  if (!stream) return { slug: file.name, doc: null, error: 'the file is missing from storage' };
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const parsed = parseDescription(text, `The file ${file.name}`);
    declaredVersion(parsed, `The file ${file.name}`);
    const doc = (await openApiParser()).upgrade(parsed).specification as unknown as Json;
    documents.set(key, doc, text.length);
    return { slug: file.name, doc, error: null };
  } catch (error) {
    if (error instanceof SpecProcessingError) return { slug: file.name, doc: null, error: error.message };
    throw error;
  }
}

/**
 * The OpenAPI parser, loaded on first use: it is a large library that most processes (the command line, a
 * server whose sites hold no OpenAPI block) never call, and loading it costs every start.
 */
function openApiParser(): Promise<typeof import('@scalar/openapi-parser')> {
  return import('@scalar/openapi-parser');
}

function markdownToHtml(text: string): string {
  if (!text.trim()) return '';
  const links = { fileUrl: () => null, pageUrl: () => null, pageTitle: () => null, reusableContent: () => null };
  return renderDocument(parseMarkdown(text).document, links).html;
}

/** A version's description, upgraded to OpenAPI 3.1 (Swagger 2.0 and 3.0 read the same way); cached. */
export async function loadVersionDocument(ctx: Ctx, versionId: string): Promise<Json | null> {
  const cached = documents.get(versionId);
  if (cached) return cached;
  const row = await ctx.db.selectFrom('openapi_spec_versions').select('content').where('id', '=', versionId).executeTakeFirst();
  if (!row) return null;
  const doc = (await openApiParser()).upgrade(JSON.parse(row.content) as Json).specification as unknown as Json;
  documents.set(versionId, doc, row.content.length);
  return doc;
}

export interface LoadedSpec {
  slug: string;
  /** null when the spec has no good version yet (pending, or its processing failed). */
  doc: Json | null;
  error: string | null;
}

async function organizationOf(ctx: Ctx, spaceId: string): Promise<string | null> {
  const row = await ctx.db.selectFrom('spaces').select('organization_id').where('id', '=', spaceId).executeTakeFirst();
  return row?.organization_id ?? null;
}

/** The specs the blocks name, at their latest version, by spec key. */
async function loadSpecs(ctx: Ctx, organizationId: string, keys: Set<string>): Promise<Map<string, LoadedSpec>> {
  const slugs = [...keys].filter((k) => k.startsWith('slug:')).map((k) => k.slice(5));
  const urls = [...keys].filter((k) => k.startsWith('url:')).map((k) => k.slice(4));
  const rows = await ctx.db
    .selectFrom('openapi_specs')
    .select(['slug', 'source_url', 'last_version_id', 'last_error'])
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('slug', 'in', slugs.length ? slugs : ['']), eb('source_url', 'in', urls.length ? urls : [''])]))
    .orderBy('created_at')
    .execute();
  const loaded = new Map<string, LoadedSpec>();
  for (const row of rows) {
    const spec: LoadedSpec = { slug: row.slug, doc: row.last_version_id ? await loadVersionDocument(ctx, row.last_version_id) : null, error: row.last_error };
    if (keys.has(`slug:${row.slug}`)) loaded.set(`slug:${row.slug}`, spec);
    if (row.source_url && keys.has(`url:${row.source_url}`) && !loaded.has(`url:${row.source_url}`)) loaded.set(`url:${row.source_url}`, spec);
  }
  return loaded;
}

function notice(what: string, why: string): string {
  return `<div class="openapi-missing" role="note">The API reference (${escapeHtml(what)}) cannot be shown: ${escapeHtml(why)}</div>`;
}

function describe(block: OpenApiBlock): string {
  if (block.type === 'openapi-schemas') return `schemas ${block.data.schemas.join(', ')}`;
  if (block.type === 'openapi-webhook') return `webhook ${block.data.method.toUpperCase()} ${block.data.name}`;
  return `${block.data.method.toUpperCase()} ${block.data.path}`;
}

/** Renders one block with the loaded specs. */
export function renderOpenApiBlock(block: OpenApiBlock, specs: Map<string, LoadedSpec>): string {
  const what = describe(block);
  const key = specKey(block);
  const loaded = key ? specs.get(key) : undefined;
  if (!key) return notice(what, 'the block names no OpenAPI specification.');
  if (!loaded) {
    if (key.startsWith('file:')) return notice(what, 'the description file it names is not in this revision.');
    return key.startsWith('slug:')
      ? notice(what, `no OpenAPI specification "${key.slice(5)}" exists in this organization.`)
      : notice(what, `no OpenAPI specification of this organization is published from ${key.slice(4)}; add it with that URL as its source.`);
  }
  if (!loaded.doc) {
    return key.startsWith('file:')
      ? notice(what, `the description file ${loaded.slug} cannot be read: ${loaded.error ?? 'it is not an OpenAPI description'}`)
      : notice(what, `the OpenAPI specification "${loaded.slug}" has not been processed successfully yet.`);
  }
  const spec: SpecDocument = { doc: loaded.doc, markdown: markdownToHtml };
  if (block.type === 'openapi-schemas') return renderSchemas(spec, block.data.schemas);
  if (block.type === 'openapi-webhook') {
    const found = findOperation(spec, block.data.name, block.data.method, 'webhooks');
    return found ? renderOperation(spec, block.data.method, block.data.name, found, { webhook: true }) : notice(what, `the specification "${loaded.slug}" has no such webhook.`);
  }
  const found = findOperation(spec, block.data.path, block.data.method);
  return found ? renderOperation(spec, block.data.method, block.data.path, found) : notice(what, `the specification "${loaded.slug}" has no such operation.`);
}

/** The operation or webhook a block shows, as an outline entry; none when it cannot be shown or is hidden. */
export function openApiBlockOutline(block: OpenApiBlock, specs: Map<string, LoadedSpec>): Array<{ id: string; title: string }> {
  if (block.type === 'openapi-schemas') return [];
  const key = specKey(block);
  const loaded = key ? specs.get(key) : undefined;
  if (!loaded?.doc) return [];
  const spec: SpecDocument = { doc: loaded.doc, markdown: markdownToHtml };
  if (block.type === 'openapi-webhook') {
    const found = findOperation(spec, block.data.name, block.data.method, 'webhooks');
    return found && !isHidden(found.operation) ? [{ id: webhookAnchor(block.data.name, block.data.method), title: operationTitle(found.operation, block.data.method, block.data.name) }] : [];
  }
  const found = findOperation(spec, block.data.path, block.data.method);
  return found && !isHidden(found.operation) ? [{ id: operationAnchor(block.data.method, block.data.path), title: operationTitle(found.operation, block.data.method, block.data.path) }] : [];
}

export interface OpenApiHooks {
  openApi(block: DocumentBlock): string | null;
  openApiOutline(block: DocumentBlock): Array<{ id: string; title: string }>;
}

/**
 * The OpenAPI hooks (HTML, outline entries) for a page of `spaceId` whose documents (the page and the
 * reusable content it includes) are given; undefined when they hold no OpenAPI block (nothing is loaded then).
 */
export async function openApiHook(ctx: FileCtx, spaceId: string, documents: Iterable<Document>, files: Map<string, StoredFile>): Promise<OpenApiHooks | undefined> {
  const blocks = openApiBlocks(documents);
  if (!blocks.length) return undefined;
  const organizationId = await organizationOf(ctx, spaceId);
  const keys = new Set(blocks.map(specKey).filter((k): k is string => k !== null && !k.startsWith('file:')));
  const specs = organizationId && keys.size ? await loadSpecs(ctx, organizationId, keys) : new Map<string, LoadedSpec>();
  for (const key of new Set(blocks.map(specKey))) {
    const file = key?.startsWith('file:') ? files.get(key.slice(5)) : undefined;
    if (file) specs.set(key!, await loadFileSpec(ctx, file));
  }
  return {
    openApi: (block) => (isOpenApiBlock(block) ? renderOpenApiBlock(block, specs) : null),
    openApiOutline: (block) => (isOpenApiBlock(block) ? openApiBlockOutline(block, specs) : []),
  };
}

const stamps = new Map<string, { value: string; until: number }>();
const STAMP_TTL_MS = 2000;
// A spec's change is watched by the memo (src/db/memo.ts): forgotten at once here, so a warm page kept
// after the change was made with the new stamp (src/published/warm-pages.ts).
onAccessChanged(() => stamps.clear());

/**
 * A short key of the latest versions of the specs of the organization that owns `spaceId` ('' for none):
 * part of every page's cache key. Remembered for two seconds per space, so the hot path of a cached page
 * pays one small query at most every two seconds.
 */
export async function openApiStamp(ctx: Pick<Context, 'db' | 'clock'>, spaceId: string): Promise<string> {
  const now = ctx.clock.now().getTime();
  const cached = stamps.get(spaceId);
  if (cached && cached.until > now) return cached.value;
  const rows = await ctx.db
    .selectFrom('openapi_specs')
    .innerJoin('spaces', 'spaces.organization_id', 'openapi_specs.organization_id')
    .select(['openapi_specs.slug', 'openapi_specs.last_version_id', 'openapi_specs.source_url'])
    .where('spaces.id', '=', spaceId)
    .orderBy('openapi_specs.slug')
    .execute();
  const value = rows.length ? createHash('sha1').update(rows.map((r) => `${r.slug}=${r.last_version_id ?? ''}@${r.source_url ?? ''}`).join('\n')).digest('base64url').slice(0, 12) : '';
  if (stamps.size > 10_000) stamps.clear();
  stamps.set(spaceId, { value, until: now + STAMP_TTL_MS });
  return value;
}
