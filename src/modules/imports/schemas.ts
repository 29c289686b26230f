import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/schemas.ts';
import { IMPORT_SOURCES } from '../../imports/index.ts';

export { PageParams, SpaceParams } from '../content/schemas.ts';

// The URL is checked by the service (scheme, then address): a format check on a multi-megabyte data: URL
// would cost more than the import.
export const ImportContentBody = Type.Object(
  {
    url: Type.String({ minLength: 1, description: 'Where the content is: an http(s) URL, or a data: URL holding it (data:text/markdown;base64,…).' }),
    source: StringEnum(IMPORT_SOURCES, { description: 'What the URL holds. Supported: markdown, zip, html, website, docx; the others answer 400.' }),
  },
  { additionalProperties: false },
);
export type ImportContentBody = Static<typeof ImportContentBody>;

export const ImportContentResult = Type.Object({
  revision: Type.String({ description: 'The id of the new revision.' }),
  importedResources: Type.Number({ description: 'How many pages and files were imported.' }),
  totalResources: Type.Number({ description: 'How many resources the source held: the imported ones and the ones skipped.' }),
});
