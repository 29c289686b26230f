import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { organizationAccess, type OrganizationAccess } from '../../access/organizations.ts';
import { findSpaceAccess } from '../../access/spaces.ts';
import { spaceActorFor, spaceResolvedLevel, spaceViewableBy, withCollectionLevels } from '../../access/levels.ts';
import { after, paginate, type Page } from '../../db/keyset.ts';
import { documentToPlainText, UnknownDocumentNode, type Document } from '../../content/markdown/index.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import { cancelPending } from '../../jobs/queue.ts';
import { allows, authorize } from '../../policy/index.ts';
import type { TranslationActor } from '../../policy/translation.ts';
import { describePairs, supportsPair } from '../../translations/engine.ts';
import { organizationEngine } from './engine-setting.ts';
import { isTranslationLanguage } from '../../translations/languages.ts';
import type { TranslationRow } from '../../db/rows.ts';
import type { TranslationView } from './views.ts';
import { runTranslationKey } from './run-job.ts';
import { scheduleTranslationRun } from './schedule.ts';
import { glossarySuggestionsFor } from './suggestions.ts';
import type { CreateTranslationBody, ListTranslationsQuery, UpdateTranslationBody } from './schemas.ts';

function translationNotFound(id: string): NotFound {
  return new NotFound(`No translation "${id}" exists that you can see in this organization.`);
}

/** A translation with the caller's standing on it (the organization's role, and their view of the source). */
async function findTranslation(ctx: Context, organizationId: string, translationId: string): Promise<{ org: OrganizationAccess; view: TranslationView | null }> {
  const org = await organizationAccess(ctx, organizationId);
  const translation = await ctx.db.selectFrom('translations').selectAll().where('id', '=', translationId).where('organization_id', '=', org.organization.id).executeTakeFirst();
  if (!translation) return { org, view: null };
  const source = await findSpaceAccess(ctx, translation.source_space_id, { includeDeleted: true });
  const actor: TranslationActor = { organization: org.actor, source: source?.actor ?? null };
  if (!allows(ctx, 'translation.view', actor)) return { org, view: null };
  return { org, view: { translation, actor } };
}

export async function getTranslation(ctx: Context, organizationId: string, translationId: string): Promise<TranslationView> {
  const { view } = await findTranslation(ctx, organizationId, translationId);
  if (!view) throw translationNotFound(translationId);
  authorize(ctx, 'translation.view', view.actor);
  return view;
}

/** The translations of an organization whose source space the caller can read, oldest first. */
export async function listTranslations(ctx: Context, organizationId: string, query: ListTranslationsQuery): Promise<Page<TranslationView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'translations.list', actor);
  const base = withCollectionLevels(ctx.db, organization.id)
    .selectFrom('translations')
    .innerJoin('spaces', 'spaces.id', 'translations.source_space_id')
    .leftJoin('collection_levels', 'collection_levels.id', 'spaces.collection_id')
    .where('translations.organization_id', '=', organization.id)
    .where(spaceViewableBy(actor.role, spaceResolvedLevel));
  const page = await paginate({
    signer: ctx.cursors,
    scope: `translations:${organization.id}:${actor.userId}`,
    request: query,
    count: async () => Number((await base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n),
    fetch: (cursor, take) =>
      base
        .selectAll('translations')
        .select([spaceResolvedLevel.as('resolved_level'), 'spaces.visibility as source_visibility'])
        .$if(cursor !== undefined, (q) => q.where(after('translations.created_at', 'translations.id', 'asc', cursor!)))
        .orderBy('translations.created_at', 'asc')
        .orderBy('translations.id', 'asc')
        .limit(take)
        .execute(),
    key: (row) => [row.created_at, row.id],
  });
  return {
    ...page,
    items: page.items.map(({ resolved_level, source_visibility, ...translation }) => ({
      translation: translation as TranslationRow,
      actor: { organization: actor, source: spaceActorFor(actor.userId, actor.role, resolved_level, source_visibility) },
    })),
  };
}

/** Refuses a pair the configured engine cannot translate (or any pair, without an engine), naming the pairs it has. */
async function checkEngine(ctx: Context, organizationId: string, from: string, to: string): Promise<void> {
  const engine = await organizationEngine(ctx, organizationId);
  if (!engine) {
    throw new BadRequest('No translation engine is configured on this Quire: the operator installs apertium (with a pair such as apertium-eng-spa) or sets QUIRE_TRANSLATION_ENGINE and QUIRE_TRANSLATION_URL.');
  }
  let capabilities;
  try {
    capabilities = await engine.capabilities();
  } catch (error) {
    throw new BadRequest(`The ${engine.name} translation engine cannot be reached to check its language pairs (${error instanceof Error ? error.message : String(error)}); try again later.`);
  }
  if (!supportsPair(capabilities, from, to)) {
    throw new BadRequest(`The ${engine.name} translation engine cannot translate ${from} → ${to}. The pairs it has: ${describePairs(capabilities)}.`);
  }
}

/**
 * A new translation of a space the caller can read, into `language`; its first run is queued in the same
 * transaction. One translation per source space and language (409 for a second).
 */
export async function createTranslation(ctx: Context, organizationId: string, body: CreateTranslationBody): Promise<TranslationView> {
  const org = await organizationAccess(ctx, organizationId);
  const source = await findSpaceAccess(ctx, body.source.space);
  if (!source || source.space.organization_id !== org.organization.id) {
    throw new BadRequest(`source.space: no space "${body.source.space}" exists in this organization that you can read.`);
  }
  const actor: TranslationActor = { organization: org.actor, source: source.actor };
  authorize(ctx, 'translation.create', actor);
  const from = body.source.language ?? (isTranslationLanguage(source.space.language) ? source.space.language : 'en');
  if (from === body.language) throw new BadRequest(`language: the space is already in "${from}"; choose another language to translate it into.`);
  await checkEngine(ctx, org.organization.id, from, body.language);
  checkInstructions(body.instructions);
  const view = await inTransaction(ctx, async (tx): Promise<TranslationView> => {
    const existing = await tx.db.selectFrom('translations').select('id').where('source_space_id', '=', source.space.id).where('language', '=', body.language).executeTakeFirst();
    if (existing) throw new Conflict(`The space "${source.space.id}" is already translated into "${body.language}" (translation "${existing.id}"); change that one instead.`);
    const now = nowIso(tx);
    const translation: TranslationRow = {
      id: tx.ids.next(),
      organization_id: org.organization.id,
      source_space_id: source.space.id,
      source_language: from,
      language: body.language,
      instructions: body.instructions ? JSON.stringify(body.instructions) : null,
      result_space_id: null,
      result_revision_id: null,
      status: 'pending',
      error: null,
      runs: 0,
      total_words: 0,
      total_pages: 0,
      total_duration_ms: 0,
      latest_duration_ms: 0,
      latest_pages: 0,
      latest_words: 0,
      created_by: actor.organization.userId,
      created_at: now,
      updated_at: now,
    };
    await tx.db.insertInto('translations').values(translation).execute();
    // The source declares the language it is translated from, so readers of a site see both as languages.
    if (!source.space.language) await tx.db.updateTable('spaces').set({ language: from }).where('id', '=', source.space.id).where('language', 'is', null).execute();
    await scheduleTranslationRun(tx, translation.id);
    return { translation, actor };
  });
  // Read after the write commits: the suggestions are advice, and reading every page belongs in no transaction.
  return { ...view, glossarySuggestions: await glossarySuggestionsFor(ctx, org.organization.id, source.space.id, from) };
}

/**
 * Each run reads the instructions as plain text: a document whose nodes cannot be read (a node of no known
 * kind, a block without its nodes) is refused now, rather than stored and failing every run.
 */
function checkInstructions(instructions: UpdateTranslationBody['instructions'] | undefined): void {
  if (!instructions) return;
  try {
    documentToPlainText(instructions as unknown as Document);
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError || error instanceof UnknownDocumentNode) {
      throw new BadRequest('The body member "instructions" is not a valid document: every node needs a known "object" (block, inline, text) and the members of its type (blocks and inlines "type" and "nodes", texts "leaves").');
    }
    throw error;
  }
}

/** New instructions, and a run that translates every page again with them. */
export async function updateTranslation(ctx: Context, organizationId: string, translationId: string, body: UpdateTranslationBody): Promise<TranslationView> {
  const { view } = await findTranslation(ctx, organizationId, translationId);
  if (!view) throw translationNotFound(translationId);
  authorize(ctx, 'translation.edit', view.actor);
  checkInstructions(body.instructions);
  return inTransaction(ctx, async (tx) => {
    const now = nowIso(tx);
    const changes = { instructions: JSON.stringify(body.instructions), status: 'pending', updated_at: now };
    await tx.db.updateTable('translations').set(changes).where('id', '=', translationId).execute();
    await scheduleTranslationRun(tx, translationId);
    return { translation: { ...view.translation, ...changes }, actor: view.actor };
  });
}

/**
 * Stops translating: the translation is removed and its queued run dropped. The result space stays, and is
 * unlocked so people can edit it: no work is lost. False when there was nothing to remove.
 */
export async function deleteTranslation(ctx: Context, organizationId: string, translationId: string): Promise<boolean> {
  const { view } = await findTranslation(ctx, organizationId, translationId);
  authorize(ctx, 'translation.delete', view?.actor ?? null);
  if (!view) return false;
  await inTransaction(ctx, async (tx) => {
    await tx.db.deleteFrom('translations').where('id', '=', translationId).execute();
    await cancelPending(tx, runTranslationKey(translationId));
    await cancelPending(tx, `${runTranslationKey(translationId)}:again`);
    if (view.translation.result_space_id) {
      await tx.db.updateTable('spaces').set({ edit_mode: 'live', updated_at: nowIso(tx) }).where('id', '=', view.translation.result_space_id).execute();
    }
  });
  return true;
}

/** What a run did to each page (Quire's own listing: the client has none). */
export async function listTranslationPages(ctx: Context, organizationId: string, translationId: string) {
  const view = await getTranslation(ctx, organizationId, translationId);
  const rows = await ctx.db.selectFrom('translation_pages').selectAll().where('translation_id', '=', view.translation.id).orderBy('page_id').execute();
  return rows.map((row) => ({ page: row.page_id, status: row.status as 'translated' | 'current' | 'edited', words: Number(row.words), translatedAt: row.translated_at }));
}
