/**
 * `node --import tsx bench/translations.ts`: a 1,000-page space translated English → Spanish with Apertium
 * (Debian's apertium and apertium-eng-spa), in process on SQLite in a fresh data folder:
 *
 *   full run          pages/second, and the share of the time spent outside the engine (reading the source,
 *                     segmenting, writing the result)
 *   one-page re-run   after one source page changed, against the full run                  target <= 0.10x
 *
 * BENCH_TRANSLATION_PAGES (default 1000) sets the size. Figures are printed, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { nowIso } from '../src/context.ts';
import { createInitialRevision } from '../src/content/revisions.ts';
import { RevisionWriter } from '../src/content/writer.ts';
import { createOrganization } from '../src/modules/orgs/service.ts';
import { runTranslation } from '../src/modules/translations/run.ts';
import { translationEngine } from '../src/translations/engines.ts';
import { fillSpace, withContext } from './seed.ts';

const pages = Number(process.env.BENCH_TRANSLATION_PAGES ?? 1000);
const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-translations-'));
process.env.QUIRE_TRANSLATION_ENGINE = 'apertium';

try {
  await withContext(dataDir, async (ctx) => {
    const engine = translationEngine(ctx.config.translation);
    if (!engine) throw new Error('Apertium is not installed: apt-get install apertium apertium-eng-spa');
    let engineMs = 0;
    const translate = engine.translate.bind(engine);
    engine.translate = async (request) => {
      const started = performance.now();
      try {
        return await translate(request);
      } finally {
        engineMs += performance.now() - started;
      }
    };

    const { organization } = await createOrganization(ctx, { title: 'Bench', ownerEmail: 'bench@example.com' });
    const spaceId = ctx.ids.next();
    const now = nowIso(ctx);
    await ctx.db
      .insertInto('spaces')
      .values({
        id: spaceId, organization_id: organization.id, collection_id: null, title: 'Bench', emoji: null, icon: null, visibility: 'private', edit_mode: 'live',
        default_level: 'inherit', language: 'en', revision_id: await createInitialRevision(ctx, spaceId), position: 0, comments: 0, change_requests: 0,
        change_requests_open: 0, change_requests_draft: 0, created_by: null, created_at: now, updated_at: now, deleted_at: null,
      })
      .execute();
    const chapter = await fillSpace(ctx, spaceId, pages);
    const translationId = ctx.ids.next();
    await ctx.db
      .insertInto('translations')
      .values({
        id: translationId, organization_id: organization.id, source_space_id: spaceId, source_language: 'en', language: 'es', instructions: null,
        result_space_id: null, result_revision_id: null, status: 'pending', error: null, created_by: null, created_at: now, updated_at: now,
      })
      .execute();

    let started = performance.now();
    await runTranslation(ctx, translationId);
    const fullMs = performance.now() - started;
    const fullEngineMs = engineMs;
    const full = await ctx.db.selectFrom('translations').selectAll().where('id', '=', translationId).executeTakeFirstOrThrow();

    const space = await ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
    const writer = await RevisionWriter.fromRevision(ctx, space.revision_id);
    writer.updatePage(chapter, { markdown: '# Chapter\n\nThis chapter was rewritten by hand.\n' });
    const { revisionId } = await writer.commit(ctx, { spaceId, type: 'edits', parents: [space.revision_id] });
    await ctx.db.updateTable('spaces').set({ revision_id: revisionId }).where('id', '=', spaceId).execute();
    engineMs = 0;
    started = performance.now();
    await runTranslation(ctx, translationId);
    const editMs = performance.now() - started;
    const edit = await ctx.db.selectFrom('translations').selectAll().where('id', '=', translationId).executeTakeFirstOrThrow();

    const line = (name: string, value: string, note: string) => console.log(`${name.padEnd(40)} ${value.padStart(12)}   ${note}`);
    line('pages translated (full run)', String(full.latest_pages), `${full.latest_words} words`);
    line('full run (s)', (fullMs / 1000).toFixed(1), `${(full.latest_pages / (fullMs / 1000)).toFixed(1)} pages/s`);
    line('time outside the engine (full run)', `${(((fullMs - fullEngineMs) / fullMs) * 100).toFixed(1)} %`, `${((fullMs - fullEngineMs) / 1000).toFixed(2)} s of ${(fullMs / 1000).toFixed(1)} s`);
    line('one-page re-run (s)', (editMs / 1000).toFixed(2), `${edit.latest_pages} page(s) translated; engine ${(engineMs / 1000).toFixed(2)} s`);
    line('one-page re-run vs full run', `${(editMs / fullMs).toFixed(3)}x`, `target <= 0.10x: ${editMs / fullMs <= 0.1 ? 'met' : 'NOT met'}`);
  });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
