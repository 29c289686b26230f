import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { assertHttp } from '../../net/fetch.ts';
import { findSpecBySlug, type OpenAPISpecRow } from '../../access/openapi-specs.ts';
import { cancelProcessing, enqueueProcessing, processOpenAPISpecJob } from '../../openapi/process-job.ts';
import { processSpec } from '../../openapi/process.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { SpecSource } from './schemas.ts';

/**
 * The operator's publish (`quire openapi publish`): creates or updates a spec with no acting user (as
 * `quire import` does), then processes it and waits for the outcome. When no server has taken the job yet,
 * this process does the work itself; otherwise it waits for the server's worker to finish.
 */

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export async function publishSpecAsOperator(ctx: Context, organizationId: string, slug: string, source: SpecSource): Promise<{ spec: OpenAPISpecRow; created: boolean }> {
  if (slug.length > 100 || !SLUG.test(slug)) throw new BadRequest(`The slug "${slug}" is not valid: use 1 to 100 lower-case letters and digits in words joined by single hyphens, e.g. "payments-api".`);
  if ('url' in source) assertHttp(new URL(source.url), 'The OpenAPI source URL');
  const organization = await ctx.db.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst();
  if (!organization) throw new NotFound(`No organization "${organizationId}" exists.`);
  const columns = 'url' in source ? { source_url: new URL(source.url).href, source_text: null } : { source_url: null, source_text: source.text };
  return inTransaction(ctx, async (tx) => {
    const now = nowIso(tx);
    const existing = await findSpecBySlug(tx, organizationId, slug);
    let spec: OpenAPISpecRow;
    if (existing) {
      spec = { ...existing, ...columns, processing_state: 'pending', updated_at: now };
      await tx.db.updateTable('openapi_specs').set({ ...columns, processing_state: 'pending', updated_at: now }).where('id', '=', existing.id).execute();
    } else {
      spec = { id: tx.ids.next(), organization_id: organizationId, slug, ...columns, visibility: 'private', processing_state: 'pending', last_version_id: null, last_processed_at: null, last_error_code: null, last_error: null, created_by: null, created_at: now, updated_at: now };
      await tx.db.insertInto('openapi_specs').values(spec).execute();
    }
    await enqueueProcessing(tx, spec.id);
    return { spec, created: !existing };
  });
}

/** Processes the spec now (or waits for the worker that has it), then returns its row. */
export async function processNow(ctx: Context, specId: string, options: { pollMs?: number; timeoutMs?: number } = {}): Promise<OpenAPISpecRow> {
  if (await cancelProcessing(ctx, specId)) {
    const outcome = await processSpec(ctx, specId);
    // The schedule goes on as the job would have left it (a URL spec is refreshed later).
    if (outcome && 'rescheduleAt' in outcome) await enqueue(ctx, processOpenAPISpecJob, { specId }, { runAt: outcome.rescheduleAt });
  } else {
    const until = Date.now() + (options.timeoutMs ?? 10 * 60_000);
    for (;;) {
      const row = await ctx.db.selectFrom('openapi_specs').select('processing_state').where('id', '=', specId).executeTakeFirst();
      if (!row || row.processing_state === 'complete') break;
      if (Date.now() > until) throw new Error('The server has not finished processing the specification yet; check it later with GET /v1/orgs/{organizationId}/openapi/{slug}.');
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 500));
    }
  }
  const row = await ctx.db.selectFrom('openapi_specs').selectAll().where('id', '=', specId).executeTakeFirst();
  if (!row) throw new NotFound('The specification was deleted while it was being processed.');
  return row;
}
