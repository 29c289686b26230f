import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { bodyMarkdown } from '../../content/documents.ts';
import { setSpaceHead } from '../../content/head.ts';
import { documentToPlainText, type Document } from '../../content/markdown/index.ts';
import type { PageFields } from '../../content/nodes.ts';
import { createInitialRevision, createRevision, findRevision } from '../../content/revisions.ts';
import { loadTree, walkPages, type RevisionTree, type TreePage } from '../../content/tree.ts';
import { RevisionWriter, type NewPage } from '../../content/writer.ts';
import type { SpaceRow } from '../../db/rows.ts';
import type { Selectable } from 'kysely';
import type { TranslationsTable } from '../../db/tables/translations.ts';
import type { JobRun } from '../../jobs/types.ts';
import { EngineError, translateAll } from '../../translations/engine.ts';
import { organizationEngine } from './engine-setting.ts';
import { termsFor } from '../../translations/glossary.ts';
import { LANGUAGE_NAMES, type TranslationLanguage } from '../../translations/languages.ts';
import { pageContentHash, PageTranslation } from '../../translations/page.ts';
import { insertNewSpace } from '../spaces/new-space.ts';
import { endPosition } from '../spaces/positions.ts';
import type { RunTranslationPayload } from './run-job.ts';

type TranslationRow = Selectable<TranslationsTable>;

/**
 * A run of a translation: translates the pages of the source space whose content changed since they were
 * last translated (all of them on the first run, or when the instructions, the glossary's terms for the
 * pair or the engine changed), and writes the result space's next revision:
 *
 * - the result mirrors the source's page tree, with the same page ids and slugs (so addresses and links
 *   are the same in every language), its files, variables and reusable contents;
 * - a page whose result was changed by hand since the run that wrote it is kept as it is (status `edited`):
 *   Quire never overwrites a person's work; delete that page in the result to have it translated again;
 * - pages added by hand to the result are kept, under the same parent when it is still there;
 * - a page removed from the source is removed from the result.
 *
 * An engine failure leaves the translation `pending` with its reason in `error`, and the queue retries with
 * a growing delay.
 */
export const runTranslationHandler: JobRun<RunTranslationPayload> = async (ctx, payload) => {
  await runTranslation(ctx, payload.translationId);
};

const MAX_TITLE = 50;

/** "<title> (Spanish)", shortened to fit a space's 50 characters. */
export function resultTitle(title: string, language: string): string {
  const suffix = ` (${LANGUAGE_NAMES[language as TranslationLanguage] ?? language})`;
  return `${Array.from(title).slice(0, MAX_TITLE - suffix.length).join('').trimEnd()}${suffix}`;
}

export async function runTranslation(ctx: Context, translationId: string): Promise<void> {
  const row = await ctx.db.selectFrom('translations').selectAll().where('id', '=', translationId).executeTakeFirst();
  if (!row) return;
  await ctx.db.updateTable('translations').set({ status: 'running', updated_at: nowIso(ctx) }).where('id', '=', row.id).execute();
  try {
    await translate(ctx, row);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await ctx.db.updateTable('translations').set({ status: 'pending', error: reason.slice(0, 2000), updated_at: nowIso(ctx) }).where('id', '=', row.id).execute();
    // Nothing to retry while the source is in the trash: the next change of its content runs it again.
    if (error instanceof SourceGone) return;
    throw error;
  }
}

class SourceGone extends Error {}

interface PageOutcome {
  status: 'translated' | 'current' | 'edited';
  sourceHash: string;
  words: number;
}

async function treeOf(ctx: Context, revisionId: string): Promise<RevisionTree> {
  const revision = await findRevision(ctx, revisionId);
  if (!revision) throw new Error(`The revision "${revisionId}" is missing.`);
  return loadTree(ctx, revision.root);
}

async function translate(ctx: Context, row: TranslationRow): Promise<void> {
  const started = performance.now();
  const engine = await organizationEngine(ctx, row.organization_id);
  if (!engine) throw new EngineError('No translation engine is configured: install apertium, or set QUIRE_TRANSLATION_ENGINE and QUIRE_TRANSLATION_URL.');
  const source = await ctx.db.selectFrom('spaces').selectAll().where('id', '=', row.source_space_id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!source) throw new SourceGone(`The source space "${row.source_space_id}" is deleted; restore it and change its content to translate it again.`);
  const sourceTree = await treeOf(ctx, source.revision_id);
  const resultSpace = row.result_space_id
    ? await ctx.db.selectFrom('spaces').selectAll().where('id', '=', row.result_space_id).where('deleted_at', 'is', null).executeTakeFirst()
    : undefined;
  const resultTree = resultSpace ? await treeOf(ctx, resultSpace.revision_id) : undefined;

  const glossary = (await ctx.db.selectFrom('glossary_entries').select('translations').where('organization_id', '=', row.organization_id).orderBy('created_at').orderBy('id').execute())
    .map((entry) => JSON.parse(entry.translations) as Record<string, string>);
  const terms = termsFor(glossary, row.source_language, row.language);
  const instructions = row.instructions ? documentToPlainText(JSON.parse(row.instructions) as Document).trim() : '';
  const settings = createHash('sha256').update(JSON.stringify([engine.name, row.source_language, row.language, instructions, terms])).digest('hex');
  const records = new Map(
    (await ctx.db.selectFrom('translation_pages').selectAll().where('translation_id', '=', row.id).execute()).map((record) => [record.page_id, record]),
  );

  // Which pages to translate, which to keep.
  const outcomes = new Map<string, PageOutcome>();
  const work: Array<{ page: TreePage; translation: PageTranslation }> = [];
  for (const page of walkPages(sourceTree.pages)) {
    const id = page.node.id;
    const sourceHash = createHash('sha256').update(settings).update(pageContentHash(page)).digest('hex');
    const record = records.get(id);
    const existing = resultTree?.byId.get(id);
    if (record && existing && (record.status === 'edited' || pageContentHash(existing) !== record.result_hash)) outcomes.set(id, { status: 'edited', sourceHash: record.source_hash, words: record.words });
    else if (record && existing && record.source_hash === sourceHash) outcomes.set(id, { status: 'current', sourceHash, words: record.words });
    else {
      const translation = new PageTranslation(sourceTree, page, await bodyMarkdown(ctx, page), terms);
      work.push({ page, translation });
      outcomes.set(id, { status: 'translated', sourceHash, words: translation.words });
    }
  }

  const segments = work.flatMap((item) => item.translation.segments.segments);
  const translated = segments.length
    ? await translateAll(engine, { from: row.source_language, to: row.language, segments, ...(instructions ? { instructions } : {}) })
    : [];

  // The result: the source's tree, with translated pages and kept ones.
  const writer = await RevisionWriter.fromRoot(ctx, sourceTree.rootHash);
  let offset = 0;
  for (const { page, translation } of work) {
    const count = translation.segments.segments.length;
    const { fields, markdown } = translation.finish(translated.slice(offset, offset + count));
    offset += count;
    writer.updatePage(page.node.id, { ...fields, ...(page.node.type === 'document' ? { markdown: markdown ?? null } : {}) });
  }
  for (const [id, outcome] of outcomes) {
    if (outcome.status === 'translated') continue;
    await keepPage(ctx, writer, sourceTree.byId.get(id)!, resultTree!.byId.get(id)!);
  }
  if (resultTree) await keepPagesAddedByHand(ctx, writer, sourceTree, resultTree, records);
  const rootHash = await writer.write(ctx);
  const written = await loadTree(ctx, rootHash);

  const durationMs = Math.round(performance.now() - started);
  const newPages = work.filter(({ page }) => !records.has(page.node.id)).length;
  const words = work.reduce((sum, item) => sum + item.translation.words, 0);
  await inTransaction(ctx, async (tx) => {
    const current = await tx.db.selectFrom('translations').select(['id', 'result_space_id']).where('id', '=', row.id).executeTakeFirst();
    if (!current) return; // deleted meanwhile: nothing to record
    let spaceId = resultSpace?.id;
    let head = resultSpace?.revision_id;
    if (!spaceId || !head) {
      const created = await createResultSpace(tx, row, source);
      spaceId = created.id;
      head = created.revision_id;
    }
    let revisionId = head;
    if (!resultTree || resultTree.rootHash !== rootHash) {
      revisionId = await createRevision(tx, { spaceId, type: 'edits', parents: [head], root: rootHash });
      if (!(await setSpaceHead(tx, spaceId, revisionId, { expected: head }))) {
        throw new Error('The result space changed during the run; the run is repeated.');
      }
    }
    await tx.db.deleteFrom('translation_pages').where('translation_id', '=', row.id).execute();
    const now = nowIso(tx);
    const rows = [...outcomes].map(([pageId, outcome]) => ({
      translation_id: row.id,
      page_id: pageId,
      source_hash: outcome.sourceHash,
      result_hash: pageContentHash(written.byId.get(pageId)!),
      status: outcome.status,
      words: outcome.words,
      translated_at: outcome.status === 'translated' ? now : (records.get(pageId)?.translated_at ?? now),
    }));
    for (let i = 0; i < rows.length; i += 200) await tx.db.insertInto('translation_pages').values(rows.slice(i, i + 200)).execute();
    await tx.db
      .updateTable('translations')
      .set((eb) => ({
        status: 'completed',
        error: null,
        result_space_id: spaceId,
        result_revision_id: revisionId,
        runs: eb('runs', '+', 1),
        total_words: eb('total_words', '+', words),
        total_pages: eb('total_pages', '+', newPages),
        total_duration_ms: eb('total_duration_ms', '+', durationMs),
        latest_duration_ms: durationMs,
        latest_pages: work.length,
        latest_words: words,
        updated_at: now,
      }))
      .where('id', '=', row.id)
      .execute();
    await tx.events.emit(tx, 'translation.completed', { organizationId: row.organization_id, actorId: null, translationId: row.id, spaceId, language: row.language });
  });
}

/** The result space, made on the first run: beside the source, titled with the language, locked. */
async function createResultSpace(tx: Context, row: TranslationRow, source: SpaceRow): Promise<SpaceRow> {
  return insertNewSpace(tx, {
    organizationId: row.organization_id,
    collectionId: source.collection_id,
    title: resultTitle(source.title, row.language),
    emoji: source.emoji,
    icon: source.icon,
    visibility: source.visibility,
    editMode: 'locked',
    defaultLevel: source.default_level,
    language: row.language,
    position: await endPosition(tx, row.organization_id, source.collection_id),
    createdBy: row.created_by,
    actorId: null,
    firstRevision: (spaceId) => createInitialRevision(tx, spaceId),
  });
}

const FIELD_KEYS: Array<keyof PageFields> = ['title', 'slug', 'description', 'emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex', 'layout', 'cover', 'variables', 'target', 'href', 'git'];

/** Puts a page of the result back as it is (its settings and body), in the place the source gives it. */
async function keepPage(ctx: Context, writer: RevisionWriter, sourcePage: TreePage, resultPage: TreePage): Promise<void> {
  const patch: Record<string, unknown> = {};
  for (const key of FIELD_KEYS) patch[key] = resultPage.node[key];
  if (!patch.title) patch.title = sourcePage.node.title;
  if (sourcePage.node.type === 'document') patch.markdown = (await bodyMarkdown(ctx, resultPage)) || null;
  writer.updatePage(sourcePage.node.id, patch);
}

/** Pages a person added to the result (never written by a run, not in the source) stay, with their subpages. */
async function keepPagesAddedByHand(ctx: Context, writer: RevisionWriter, sourceTree: RevisionTree, resultTree: RevisionTree, records: Map<string, unknown>): Promise<void> {
  const visit = async (pages: TreePage[]) => {
    for (const page of pages) {
      const id = page.node.id;
      if (!sourceTree.byId.has(id) && !records.has(id) && !writer.has(id)) {
        const parent = page.parentId && writer.has(page.parentId) ? page.parentId : null;
        writer.addPage(await asNewPage(ctx, page), { parent });
        continue;
      }
      await visit(page.pages);
    }
  };
  await visit(resultTree.pages);
}

async function asNewPage(ctx: Context, page: TreePage): Promise<NewPage> {
  const { body: _body, children: _children, ...fields } = page.node;
  const markdown = await bodyMarkdown(ctx, page);
  return { ...fields, ...(markdown ? { markdown } : {}), pages: await Promise.all(page.pages.map((child) => asNewPage(ctx, child))) };
}
