import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/schemas.ts';

/** The client's generateStorageUploadURL body: what will be uploaded, and for what. */
export const StorageUploadBody = Type.Object({
  file: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 255, description: 'Original filename' }),
    type: Type.String({ minLength: 1, maxLength: 100, description: 'MIME type of the file' }),
    size: Type.Number({ minimum: 1, description: 'Size of the file in bytes' }),
  }),
  kind: StringEnum(['customization_font']),
});
export type StorageUploadBody = Static<typeof StorageUploadBody>;

export const StorageUploadUrlSchema = Type.Object({
  object: StringEnum(['storage-signed-url']),
  url: Type.String({ format: 'uri', description: 'Where to PUT the bytes, before it expires (one hour)' }),
  key: Type.String({ description: 'The key to give createCustomFont as a face\'s storageKey' }),
});
export type StorageUploadUrl = Static<typeof StorageUploadUrlSchema>;

export const UploadParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 100 }) });
export const UploadQuery = Type.Object({
  expires: Type.Integer({ minimum: 0, description: 'When the address expires, in seconds since 1970.' }),
  signature: Type.String({ minLength: 1, maxLength: 200 }),
});
export type UploadQuery = Static<typeof UploadQuery>;

export const UploadedSchema = Type.Object({
  key: Type.String(),
  size: Type.Integer(),
  fontFamily: Type.String({ description: 'The family name the font file declares' }),
  format: StringEnum(['woff2', 'woff']),
});
export type Uploaded = Static<typeof UploadedSchema>;

export const FontFileParams = Type.Object({ file: Type.String({ minLength: 1, maxLength: 100 }) });
