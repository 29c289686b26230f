import { Type, type Static } from 'typebox';

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const ChangeRequestPdfParams = Type.Object({
  spaceId: Id,
  changeRequestId: Type.String({ minLength: 1, maxLength: 100, description: 'The id of the change request, or its number in the space.' }),
});

export const PdfQuery = Type.Object({
  only: Type.Optional(Type.Boolean({ description: 'Print only the page named by "page" (not the pages under it).' })),
  page: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The id of a page: print it with the pages under it (or alone with "only").' })),
});
export type PdfQuery = Static<typeof PdfQuery>;

export const PdfUrlSchema = Type.Object({
  url: Type.String({ format: 'uri', maxLength: 2048, description: 'A signed URL of the PDF, valid for one to two hours.' }),
});

export const PdfFileParams = Type.Object({ spaceId: Id, revisionId: Id });

export const PdfFileQuery = Type.Object({
  changeRequest: Type.Optional(Id),
  page: Type.Optional(Id),
  only: Type.Optional(Type.Boolean()),
  expires: Type.Integer({ minimum: 0, description: 'When the link expires, in seconds since 1970.' }),
  signature: Type.String({ minLength: 1, maxLength: 200 }),
});
export type PdfFileQuery = Static<typeof PdfFileQuery>;
