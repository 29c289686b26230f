import { Type, type Static } from 'typebox';
import { ListQuery } from '../../http/schemas.ts';
import { DefaultLevel } from '../spaces/schemas.ts';

export const CollectionTitle = Type.String({ maxLength: 50, description: 'Title of the collection' });
export const CollectionDescription = Type.String({ minLength: 0, maxLength: 100, description: 'Description of the collection' });

export const CollectionSchema = Type.Object(
  {
    object: Type.Literal('collection'),
    id: Type.String(),
    title: Type.String(),
    description: Type.Optional(Type.String()),
    organization: Type.String(),
    parent: Type.Optional(Type.String({ description: 'The parent collection.' })),
    defaultLevel: DefaultLevel,
    urls: Type.Object({ location: Type.String({ format: 'uri' }), app: Type.String({ format: 'uri' }) }),
    permissions: Type.Object({ view: Type.Boolean(), admin: Type.Boolean(), viewInviteLinks: Type.Boolean(), create: Type.Boolean() }),
  },
  { $id: 'Collection' },
);
export type Collection = Static<typeof CollectionSchema>;

const Id = Type.String({ minLength: 1, maxLength: 100 });
export const CollectionParams = Type.Object({ collectionId: Id });

export const ListCollectionsQuery = Type.Object(
  {
    ...ListQuery,
    nested: Type.Optional(Type.Boolean({ default: true, description: 'true (default): every collection, nested ones included; false: only those at the root of the organization.' })),
  },
  { additionalProperties: false },
);
export type ListCollectionsQuery = Static<typeof ListCollectionsQuery>;

export const ListCollectionSpacesQuery = Type.Object(ListQuery, { additionalProperties: false });
export type ListCollectionSpacesQuery = Static<typeof ListCollectionSpacesQuery>;

export const CreateCollectionBody = Type.Object(
  {
    title: Type.Optional(CollectionTitle),
    parent: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The collection to create it in.' })),
  },
  { additionalProperties: false },
);
export type CreateCollectionBody = Static<typeof CreateCollectionBody>;

export const UpdateCollectionBody = Type.Object(
  { title: Type.Optional(CollectionTitle), description: Type.Optional(CollectionDescription), defaultLevel: Type.Optional(DefaultLevel) },
  { additionalProperties: false },
);
export type UpdateCollectionBody = Static<typeof UpdateCollectionBody>;
