import { Type, type Static } from 'typebox';
import { ListQuery, StringEnum, Timestamp } from '../../http/schemas.ts';
import { TRANSLATION_LANGUAGES } from '../../translations/languages.ts';
import { TRANSLATION_ENGINES } from '../../config.ts';

export const TRANSLATION_STATUSES = ['pending', 'running', 'completed'] as const;

export const TranslationLanguageSchema = StringEnum(TRANSLATION_LANGUAGES, { description: 'A language the client names (ISO 639-1).' });

/** A JSON document (the client's `JSONDocument`): `{ object: 'document', data, nodes }`. */
export const InstructionsDocument = Type.Object(
  {
    object: Type.Literal('document'),
    data: Type.Object({ schemaVersion: Type.Optional(Type.Integer()) }, { additionalProperties: true }),
    nodes: Type.Array(Type.Object({ object: Type.String(), type: Type.String() }, { additionalProperties: true }), { maxItems: 500 }),
  },
  { description: 'Instructions for the engine, as a document (honoured by engines that take instructions).' },
);

export const TranslationSchema = Type.Object({
  object: Type.Literal('translation'),
  id: Type.String(),
  status: StringEnum(TRANSLATION_STATUSES, { description: 'pending: waiting for a run (or retrying after an engine failure, see `error`); running; completed.' }),
  source: Type.Object({ space: Type.String(), language: TranslationLanguageSchema }),
  language: TranslationLanguageSchema,
  instructions: InstructionsDocument,
  result: Type.Optional(Type.Object({ space: Type.String(), revision: Type.String() })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  stats: Type.Object({
    runs: Type.Integer(),
    totalWords: Type.Integer(),
    totalPages: Type.Integer(),
    totalDuration: Type.Integer({ description: 'Seconds.' }),
    latestRunDuration: Type.Integer({ description: 'Seconds.' }),
    latestPages: Type.Integer(),
    latestWords: Type.Integer(),
  }),
  /** Quire's own member: why the translation is still pending after a failed run. */
  error: Type.Optional(Type.String({ description: 'Quire: why the last run failed; the run is retried with a growing delay.' })),
  /** Quire's own member, in the answer to a create only. */
  glossarySuggestions: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Quire, on create: names in the source space that look like products (the space and site titles, words with an inner dot or capital, link texts that are a page title) and that the glossary does not have yet. Add the ones to keep as they are with PUT …/translations-glossary.',
    }),
  ),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
export type Translation = Static<typeof TranslationSchema>;

export const TranslationParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }), translationId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ListTranslationsQuery = Type.Object(ListQuery, { additionalProperties: false });
export type ListTranslationsQuery = Static<typeof ListTranslationsQuery>;

export const CreateTranslationBody = Type.Object(
  {
    language: TranslationLanguageSchema,
    source: Type.Object({ space: Type.String({ minLength: 1, maxLength: 100 }), language: Type.Optional(TranslationLanguageSchema) }, { additionalProperties: false }),
    instructions: Type.Optional(InstructionsDocument),
  },
  { additionalProperties: false },
);
export type CreateTranslationBody = Static<typeof CreateTranslationBody>;

export const UpdateTranslationBody = Type.Object({ instructions: InstructionsDocument }, { additionalProperties: false });
export type UpdateTranslationBody = Static<typeof UpdateTranslationBody>;

/** The status of each page of a translation (Quire's own listing). */
export const TranslationPageSchema = Type.Object({
  page: Type.String(),
  status: StringEnum(['translated', 'current', 'edited'] as const, {
    description: 'translated: by the latest run that touched it; current: unchanged since; edited: changed by hand in the result, kept as it is.',
  }),
  words: Type.Integer(),
  translatedAt: Timestamp,
});

// ── The glossary ────────────────────────────────────────────────────────────────────────────────

const Term = Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\n\\r]*$' });
export const GlossaryTranslations = Type.Record(Type.String({ maxLength: 8 }), Term, { description: 'Language code (ISO 639-1, one of the translation languages) → term.' });

export const GlossaryEntrySchema = Type.Object({
  object: Type.Literal('glossary-entry'),
  id: Type.String(),
  translations: Type.Record(Type.String(), Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
export type GlossaryEntry = Static<typeof GlossaryEntrySchema>;

export const GlossaryOperation = Type.Union([
  Type.Object({ type: Type.Literal('insert'), translations: GlossaryTranslations }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('update'), id: Type.String({ minLength: 1, maxLength: 100 }), translations: GlossaryTranslations }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('delete'), id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
]);
export const UpdateGlossaryBody = Type.Object({ operations: Type.Array(GlossaryOperation, { maxItems: 1000 }) }, { additionalProperties: false });
export type UpdateGlossaryBody = Static<typeof UpdateGlossaryBody>;
export const GlossaryEntryParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }), glossaryEntryId: Type.String({ minLength: 1, maxLength: 100 }) });

const EngineName = StringEnum(TRANSLATION_ENGINES.filter((name) => name !== 'auto'), { description: 'A machine-translation engine (src/translations/).' });

/** Quire's own: the organization's translation engine (decision 0114). */
export const TranslationEngineSchema = Type.Object({
  engine: EngineName,
  chosen: Type.Union([EngineName, Type.Null()], { description: "The organization's own choice; null follows the server's." }),
  server: EngineName,
  offered: Type.Array(EngineName, { description: 'The engines this server offers the organization.' }),
});
export type OrganizationTranslationEngine = Static<typeof TranslationEngineSchema>;

export const UpdateTranslationEngineBody = Type.Object(
  { engine: Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Null()], { description: "One of the offered engines, or null for the server's." }) },
  { additionalProperties: false },
);
export type UpdateTranslationEngineBody = Static<typeof UpdateTranslationEngineBody>;
