import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { authorize } from '../../policy/index.ts';
import { defaultAdaptiveSchema, templateConditions, validateAdaptiveSchema, type AdaptiveJsonSchema, type TemplateCondition } from '../../sites/adaptive-schema.ts';
import { siteAccess, touchSite, type SiteRow } from '../../access/sites.ts';
import type { AdaptiveSchema } from './schemas.ts';

/**
 * A site's visitor schema (adaptive content): the claims its conditions may read. A site that never had one
 * set answers the default schema (no claims), dated by the site's creation.
 */
export interface AdaptiveSchemaView {
  jsonSchema: AdaptiveJsonSchema;
  updatedAt: string;
}

function storedSchema(site: SiteRow): AdaptiveSchemaView {
  if (site.adaptive_schema === null) return { jsonSchema: defaultAdaptiveSchema(), updatedAt: site.created_at };
  return { jsonSchema: JSON.parse(site.adaptive_schema) as AdaptiveJsonSchema, updatedAt: site.adaptive_schema_updated_at ?? site.created_at };
}

export function presentAdaptiveSchema(view: AdaptiveSchemaView): AdaptiveSchema {
  return { object: 'site-adaptive-schema', jsonSchema: view.jsonSchema as unknown as AdaptiveSchema['jsonSchema'], updatedAt: view.updatedAt };
}

export async function getAdaptiveSchema(ctx: Context, organizationId: string, siteId: string): Promise<AdaptiveSchemaView> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  return storedSchema(site);
}

/** Replaces the visitor schema with `value`, checked (and rebuilt from what was checked) by validateAdaptiveSchema. */
export async function putAdaptiveSchema(ctx: Context, organizationId: string, siteId: string, value: unknown): Promise<AdaptiveSchemaView> {
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.manage', actor);
    const jsonSchema = validateAdaptiveSchema(value);
    const updatedAt = nowIso(tx);
    await tx.db.updateTable('sites').set({ adaptive_schema: JSON.stringify(jsonSchema), adaptive_schema_updated_at: updatedAt }).where('id', '=', site.id).execute();
    await touchSite(tx, site.id);
    return { jsonSchema, updatedAt };
  });
}

/** Condition templates made from the site's visitor schema. */
export async function listTemplateConditions(ctx: Context, organizationId: string, siteId: string): Promise<TemplateCondition[]> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  return templateConditions(storedSchema(site).jsonSchema);
}
