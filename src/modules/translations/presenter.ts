import type { Context } from '../../context.ts';
import { translationPermissions } from '../../policy/translation.ts';
import type { GlossaryEntry, OrganizationTranslationEngine, Translation } from './schemas.ts';
import type { TranslationEngineSetting } from './engine-setting.ts';
import type { GlossaryEntryRow } from '../../db/rows.ts';
import type { TranslationView } from './views.ts';



export const EMPTY_INSTRUCTIONS: Translation['instructions'] = { object: 'document', data: {}, nodes: [] };

export function translationLocation(ctx: Pick<Context, 'config'>, organizationId: string, id: string): string {
  return `${ctx.config.publicUrl}/v1/orgs/${organizationId}/translations/${id}`;
}

const seconds = (ms: number) => Math.round(Number(ms) / 1000);

export function presentTranslation(ctx: Pick<Context, 'config'>, { translation: t, actor, glossarySuggestions }: TranslationView): Translation {
  const presented: Translation = {
    object: 'translation',
    id: t.id,
    status: t.status as Translation['status'],
    source: { space: t.source_space_id, language: t.source_language as Translation['language'] },
    language: t.language as Translation['language'],
    instructions: t.instructions ? (JSON.parse(t.instructions) as Translation['instructions']) : EMPTY_INSTRUCTIONS,
    createdAt: t.created_at,
    updatedAt: t.updated_at,
    stats: {
      runs: Number(t.runs),
      totalWords: Number(t.total_words),
      totalPages: Number(t.total_pages),
      totalDuration: seconds(t.total_duration_ms),
      latestRunDuration: seconds(t.latest_duration_ms),
      latestPages: Number(t.latest_pages),
      latestWords: Number(t.latest_words),
    },
    permissions: translationPermissions(actor),
    urls: { location: translationLocation(ctx, t.organization_id, t.id) },
  };
  if (t.result_space_id && t.result_revision_id) presented.result = { space: t.result_space_id, revision: t.result_revision_id };
  if (t.error) presented.error = t.error;
  if (glossarySuggestions) presented.glossarySuggestions = glossarySuggestions;
  return presented;
}

export function glossaryEntryLocation(ctx: Pick<Context, 'config'>, organizationId: string, id: string): string {
  return `${ctx.config.publicUrl}/v1/orgs/${organizationId}/translations-glossary/${id}`;
}

export function presentGlossaryEntry(ctx: Pick<Context, 'config'>, entry: GlossaryEntryRow): GlossaryEntry {
  return {
    object: 'glossary-entry',
    id: entry.id,
    translations: JSON.parse(entry.translations) as Record<string, string>,
    createdAt: entry.created_at,
    updatedAt: entry.updated_at,
    urls: { location: glossaryEntryLocation(ctx, entry.organization_id, entry.id) },
  };
}

/** The organization's translation engine (decision 0114): the engine in use, its own choice, the server's, and what it may choose. */
export function presentTranslationEngine(setting: TranslationEngineSetting): OrganizationTranslationEngine {
  return { engine: setting.engine, chosen: setting.chosen, server: setting.server, offered: [...setting.offered] };
}
