import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';
import { inTransaction, nowIso } from '../context.ts';
import { QuireError } from '../errors.ts';
import { megabytes, safeFetch } from '../net/fetch.ts';
import type { JobOutcome, JobRun } from '../jobs/types.ts';
import type { ProcessPayload } from './process-job.ts';
import { bundleExternalReferences } from './bundle.ts';
import { SpecProcessingError } from './errors.ts';
import { declaredVersion, parseDescription, validateDescription, type SpecObject } from './parse.ts';

/**
 * Processing one spec: read its source (the URL through the address guard, or the text), parse JSON or
 * YAML, bundle external references, validate against the OpenAPI schema of its version, and write a new
 * version when the bundled content's hash differs from the latest one. A failure is recorded on the spec
 * with its code and a sentence saying what to do; the latest good version stays the latest.
 */

/** The largest description (and each document it refers to) Quire downloads. */
export const MAX_DESCRIPTION_BYTES = 20 * 1024 * 1024;

type ProcessContext = Context;

async function fetchText(ctx: ProcessContext, url: string, what: string): Promise<{ text: string; url: string }> {
  const signal = AbortSignal.timeout(ctx.config.openapiFetchTimeoutSeconds * 1000);
  try {
    const download = await safeFetch(url, {
      allowPrivate: ctx.config.importAllowPrivate,
      what,
      maxBytes: MAX_DESCRIPTION_BYTES,
      maxRedirects: 5,
      signal,
      accept: 'application/json, application/yaml, application/x-yaml, text/yaml, text/plain;q=0.8, */*;q=0.5',
    });
    return { text: download.bytes.toString('utf8'), url: download.url };
  } catch (error) {
    if (signal.aborted) {
      throw new SpecProcessingError('FETCH_TIMEOUT', `Fetching ${url} took longer than ${ctx.config.openapiFetchTimeoutSeconds} seconds and was stopped; make the server answer faster, or publish the description as text.`);
    }
    if (error instanceof QuireError) throw new SpecProcessingError('FETCH_ERROR', `${error.message.replace(/\.$/, '')}. The ${what} must be reachable from the Quire server and at most ${megabytes(MAX_DESCRIPTION_BYTES)}.`);
    throw error;
  }
}

/** The bundled description of a source, as JSON text; throws SpecProcessingError for every named failure. */
export async function buildDescription(ctx: ProcessContext, source: { url: string | null; text: string | null }): Promise<{ content: string; document: SpecObject }> {
  let root: SpecObject;
  let rootUrl: string | null = null;
  if (source.url !== null) {
    const fetched = await fetchText(ctx, source.url, 'OpenAPI source');
    rootUrl = fetched.url;
    root = parseDescription(fetched.text, `The content at ${fetched.url}`);
  } else {
    root = parseDescription(source.text ?? '', 'The description text');
  }
  const where = rootUrl ? `The description at ${rootUrl}` : 'The description';
  declaredVersion(root, where);
  const bundled = await bundleExternalReferences(root, rootUrl, (url) => fetchText(ctx, url, 'OpenAPI source'));
  const content = JSON.stringify(bundled);
  // The validator may annotate what it is given; it gets its own copy, the stored text is made before.
  await validateDescription(JSON.parse(content) as SpecObject, where);
  return { content, document: bundled };
}

export function contentHash(content: string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The job's work for one spec (see src/openapi/process-job.ts); safe to run twice. */
export async function processSpec(ctx: ProcessContext, specId: string): Promise<JobOutcome> {
  const spec = await ctx.db.selectFrom('openapi_specs').selectAll().where('id', '=', specId).executeTakeFirst();
  if (!spec) return;
  const stamp = spec.updated_at;
  await ctx.db.updateTable('openapi_specs').set({ processing_state: 'progress' }).where('id', '=', specId).where('updated_at', '=', stamp).execute();

  let built: { content: string } | null = null;
  let failure: SpecProcessingError | null = null;
  try {
    built = await buildDescription(ctx, { url: spec.source_url, text: spec.source_text });
  } catch (error) {
    if (!(error instanceof SpecProcessingError)) throw error;
    failure = error;
  }

  return inTransaction(ctx, async (tx) => {
    const current = await tx.db.selectFrom('openapi_specs').selectAll().where('id', '=', specId).executeTakeFirst();
    if (!current) return;
    const now = nowIso(tx);
    let lastVersion = current.last_version_id;
    if (built) {
      const hash = contentHash(built.content);
      const latest = lastVersion ? await tx.db.selectFrom('openapi_spec_versions').select('content_hash').where('id', '=', lastVersion).executeTakeFirst() : undefined;
      if (latest?.content_hash !== hash) {
        lastVersion = tx.ids.next();
        await tx.db.insertInto('openapi_spec_versions').values({ id: lastVersion, spec_id: specId, content_hash: hash, content: built.content, source_url: spec.source_url, created_at: now }).execute();
      }
    }
    // The source changed while this run worked: the new one is processed right away.
    const changed = current.updated_at !== stamp;
    await tx.db
      .updateTable('openapi_specs')
      .set({
        processing_state: changed ? 'pending' : 'complete',
        last_version_id: lastVersion,
        last_processed_at: now,
        last_error_code: failure?.code ?? null,
        last_error: failure?.message ?? null,
      })
      .where('id', '=', specId)
      .execute();
    if (!changed && lastVersion) {
      await tx.events.emit(tx, 'openapi_spec.processed', { organizationId: current.organization_id, actorId: null, specSlug: current.slug, versionId: lastVersion });
    }
    if (changed) return { rescheduleAt: tx.clock.now() };
    if (current.source_url && ctx.config.openapiRefreshHours > 0) return { rescheduleAt: new Date(tx.clock.now().getTime() + ctx.config.openapiRefreshHours * 3600_000) };
    return;
  });
}

/** The handler of `openapi-process`. */
export const runProcessSpec: JobRun<ProcessPayload> = (ctx, payload) => processSpec(ctx, payload.specId);
