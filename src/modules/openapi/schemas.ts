import { Type, type Static } from 'typebox';
import { ListQuery, StringEnum, Timestamp, Url } from '../../http/schemas.ts';

export const SPEC_SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const OpenAPISpecSlug = Type.String({ minLength: 1, maxLength: 100, pattern: SPEC_SLUG_PATTERN, description: 'Lower-case letters and digits in words joined by single hyphens, e.g. "payments-api".' });
export const ProcessingState = StringEnum(['pending', 'progress', 'complete'] as const);
export const Visibility = StringEnum(['private', 'public'] as const, { description: 'private: members only; public: anyone with the published URL.' });
export const ProcessErrorCode = StringEnum(['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const);

export const OpenAPISpecSource = Type.Union(
  [
    Type.Object({ url: Type.String({ format: 'uri', maxLength: 2048, description: 'Where Quire fetches the description (http or https).' }) }, { additionalProperties: false }),
    Type.Object({ text: Type.String({ minLength: 1, description: 'The description itself, JSON or YAML.' }) }, { additionalProperties: false }),
  ],
  { description: 'Either { url } or { text }.' },
);

export const OrgParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }) });
export const SpecParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }), specSlug: Type.String({ minLength: 1, maxLength: 200 }) });
export const VersionParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }), specSlug: Type.String({ minLength: 1, maxLength: 200 }), versionId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ListSpecsQuery = Type.Object(ListQuery);

export const CreateSpecBody = Type.Object({ slug: OpenAPISpecSlug, source: OpenAPISpecSource }, { additionalProperties: false });
export const PutSpecBody = Type.Object({ source: OpenAPISpecSource }, { additionalProperties: false });
export const PatchSpecBody = Type.Object({ visibility: Visibility }, { additionalProperties: false });
export type CreateSpecBody = Static<typeof CreateSpecBody>;
export type SpecSource = Static<typeof OpenAPISpecSource>;

export const OpenAPISpecSchema = Type.Object({
  object: Type.Literal('openapi-spec'),
  id: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  slug: Type.String(),
  sourceURL: Type.Optional(Url),
  processingState: ProcessingState,
  visibility: Visibility,
  lastVersion: Type.Optional(Type.String()),
  lastProcessedAt: Type.Optional(Timestamp),
  lastProcessErrorCode: Type.Optional(ProcessErrorCode),
  lastProcessError: Type.Optional(Type.String({ description: 'Quire: what went wrong in the last processing, and what to do about it.' })),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean(), delete: Type.Boolean() }),
  urls: Type.Object({ location: Url, app: Url, published: Type.Optional(Url) }),
});
export type OpenAPISpec = Static<typeof OpenAPISpecSchema>;

export const OpenAPISpecVersionSchema = Type.Object({
  object: Type.Literal('openapi-spec-version'),
  id: Type.String(),
  createdAt: Timestamp,
  url: Url,
  urls: Type.Object({ location: Url }),
});
export type OpenAPISpecVersion = Static<typeof OpenAPISpecVersionSchema>;

export const SpecFile = Type.Object({
  dir: Type.String(),
  filename: Type.String(),
  isEntrypoint: Type.Boolean(),
  references: Type.Array(Type.String()),
  specification: Type.Unknown({ description: 'The bundled description (every external $ref inlined).' }),
});
export const OpenAPISpecContentSchema = Type.Object({
  filesystem: Type.Array(SpecFile, { description: 'The files of the description: one entry point holding the bundled document.' }),
  url: Url,
});
export type OpenAPISpecContent = Static<typeof OpenAPISpecContentSchema>;
