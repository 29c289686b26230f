import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { pageInCreationOrder, type Page } from '../../db/keyset.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { isTranslationLanguage, TRANSLATION_LANGUAGES } from '../../translations/languages.ts';
import type { GlossaryEntryRow } from '../../db/rows.ts';
import { scheduleTranslationRun } from './schedule.ts';
import type { ListTranslationsQuery, UpdateGlossaryBody } from './schemas.ts';

/** The glossary of an organization, oldest entry first (members; guests are refused). */
export async function listGlossary(ctx: Context, organizationId: string, query: ListTranslationsQuery): Promise<Page<GlossaryEntryRow>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'glossary.view', actor);
  const rows = ctx.db.selectFrom('glossary_entries').selectAll().where('organization_id', '=', organization.id);
  return pageInCreationOrder(ctx.cursors, rows, `glossary:${organization.id}`, query);
}

export async function getGlossaryEntry(ctx: Context, organizationId: string, entryId: string): Promise<GlossaryEntryRow> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'glossary.view', actor);
  const entry = await ctx.db.selectFrom('glossary_entries').selectAll().where('id', '=', entryId).where('organization_id', '=', organization.id).executeTakeFirst();
  if (!entry) throw new NotFound(`No glossary entry "${entryId}" exists in this organization.`);
  return entry;
}

function checkTerms(translations: Record<string, string>, where: string): string {
  const keys = Object.keys(translations);
  if (keys.length === 0) throw new BadRequest(`${where}.translations: give the term in at least one language.`);
  for (const key of keys) {
    if (!isTranslationLanguage(key)) throw new BadRequest(`${where}.translations: "${key}" is not a translation language (one of ${TRANSLATION_LANGUAGES.join(', ')}).`);
    if (!translations[key].trim()) throw new BadRequest(`${where}.translations.${key}: the term is blank.`);
  }
  return JSON.stringify(Object.fromEntries(keys.sort().map((key) => [key, translations[key]])));
}

/**
 * Applies a batch of inserts, updates and deletes, all or nothing; an update of an entry that is not there
 * is refused (400, naming the operation); deleting one that is not there changes nothing. Every
 * translation of the organization then runs again: pages whose pair's terms changed are translated anew.
 */
export async function updateGlossary(ctx: Context, organizationId: string, body: UpdateGlossaryBody): Promise<void> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'glossary.edit', actor);
  await inTransaction(ctx, async (tx) => {
    const now = nowIso(tx);
    for (const [index, operation] of body.operations.entries()) {
      const where = `operations[${index}]`;
      if (operation.type === 'insert') {
        const translations = checkTerms(operation.translations, where);
        await tx.db.insertInto('glossary_entries').values({ id: tx.ids.next(), organization_id: organization.id, translations, created_at: now, updated_at: now }).execute();
      } else if (operation.type === 'update') {
        const translations = checkTerms(operation.translations, where);
        const result = await tx.db.updateTable('glossary_entries').set({ translations, updated_at: now }).where('id', '=', operation.id).where('organization_id', '=', organization.id).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw new BadRequest(`${where}: no glossary entry "${operation.id}" exists in this organization to update.`);
      } else {
        await tx.db.deleteFrom('glossary_entries').where('id', '=', operation.id).where('organization_id', '=', organization.id).execute();
      }
    }
    if (body.operations.length === 0) return;
    const translations = await tx.db.selectFrom('translations').select('id').where('organization_id', '=', organization.id).execute();
    for (const translation of translations) await scheduleTranslationRun(tx, translation.id);
  });
}
