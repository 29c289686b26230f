import type { TranslationActor } from '../../policy/translation.ts';
import type { TranslationRow } from '../../db/rows.ts';

/** A translation as services hand it to the presenter: the row and the caller's standing on it. */
export interface TranslationView {
  translation: TranslationRow;
  actor: TranslationActor;
  /** Only when the translation was just created: names to consider for the glossary. */
  glossarySuggestions?: string[];
}
