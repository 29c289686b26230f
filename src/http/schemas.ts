import { Type, type TSchema } from 'typebox';
import { MEMBER_ROLES } from '../policy/roles.ts';

/** Schemas shared by every area of the API. */

export const Timestamp = Type.String({ format: 'date-time' });
export const Url = Type.String({ format: 'uri', maxLength: 2048 });

/** A string enum: `{ type: 'string', enum: [...] }` with the exact static type. */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const MemberRole = StringEnum(MEMBER_ROLES, { description: 'The role of a member in an organization.' });
export const MemberRoleOrGuest = Type.Union([MemberRole, Type.Null()], {
  description: 'The role of a member in an organization, null for guests.',
});

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.Integer({ description: 'The HTTP status.' }),
      message: Type.String({ description: 'What went wrong, in a sentence a person can act on.' }),
    }),
  },
  { $id: 'Error' },
);

export const ListQuery = {
  page: Type.Optional(Type.String({ description: 'The cursor from `next.page` of the previous answer.', maxLength: 2048 })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'Items per page (default 50, at most 1000).' })),
};

export const OrderQuery = Type.Optional(StringEnum(['asc', 'desc'], { default: 'desc', description: 'The order of the items.' }));

/** `{ next?: { page }, count, items }`: the shape of every list. */
export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({
    next: Type.Optional(Type.Object({ page: Type.String() })),
    count: Type.Number({ description: 'How many items the whole list holds.' }),
    items: Type.Array(item),
  });
}

/**
 * A success answer with no body (204, 205). Typed as undefined so that routes send nothing at all: a null
 * payload would be written as the text "null", which a 204 or 205 must not carry.
 */
export const NoContent = Type.Unsafe<undefined>({ type: 'null', description: 'No content.' });

/** The answers of a removal: 205 when something was removed, 204 when there was nothing (docs/decisions/0004). */
export const removalResponses = { 204: NoContent, 205: NoContent };

/** Error answers every route may give; merged into each route's `response`. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  500: ErrorBody,
};
