import { Type } from 'typebox';

export const FavoriteSpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1, maxLength: 100, description: 'The space to star or unstar.' }) }, { additionalProperties: false });
