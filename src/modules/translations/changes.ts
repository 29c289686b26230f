import type { DomainEventListener } from '../../event-bus.ts';
import type { SpaceContentChanged } from '../../events.ts';
import { scheduleTranslationRun } from './schedule.ts';

/** How long after a change of the source a run starts, so a burst of edits gives one run. */
export const SOURCE_DEBOUNCE_MS = 5_000;

/** Translations' subscription to `space-content-changed`: every translation of that space runs again (soon). */
export const translateOnContentChange: DomainEventListener<SpaceContentChanged> = async (tx, event) => {
  const translations = await tx.db.selectFrom('translations').select('id').where('source_space_id', '=', event.spaceId).execute();
  for (const translation of translations) await scheduleTranslationRun(tx, translation.id, SOURCE_DEBOUNCE_MS);
};
