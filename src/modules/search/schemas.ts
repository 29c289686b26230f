import { Type, type Static } from 'typebox';
import { ListQuery } from '../../http/schemas.ts';

export const SearchRequest = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 512,
      description: 'What to look for: words (each must be found; a word also matches the start of longer words) and "quoted phrases".',
    }),
    ...ListQuery,
  },
  { additionalProperties: false },
);
export type SearchRequest = Static<typeof SearchRequest>;

const AppUrl = Type.Object({ app: Type.String({ format: 'uri' }) });

export const SearchSectionSchema = Type.Object({
  id: Type.String({ description: 'The anchor of the section\'s heading; "" for the text before the first heading.' }),
  title: Type.String({ description: 'The heading of the section (the page title for the text before the first heading).' }),
  path: Type.String({ description: 'The page path, with the anchor: "guides/install#requirements".' }),
  body: Type.String({ description: 'A part of the section\'s text around the first match.' }),
  urls: AppUrl,
});

export const SearchPageSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  path: Type.String(),
  sections: Type.Array(SearchSectionSchema, { description: 'The sections of the page that match, in reading order.' }),
  urls: AppUrl,
});
export type SearchPage = Static<typeof SearchPageSchema>;

export const SearchSpaceSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  pages: Type.Array(SearchPageSchema, { description: 'The best matching pages of the space, best first.' }),
});
export type SearchSpace = Static<typeof SearchSpaceSchema>;
