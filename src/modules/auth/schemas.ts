import { Type, type Static } from 'typebox';

export const SessionUserSchema = Type.Object({
  id: Type.String(),
  displayName: Type.String(),
  email: Type.String(),
  photoURL: Type.Optional(Type.String()),
});

export const CurrentSessionSchema = Type.Object(
  {
    user: SessionUserSchema,
    csrfToken: Type.String({ description: 'Send it as the header X-CSRF-Token with every cookie-authenticated request that is not GET, HEAD or OPTIONS.' }),
    expiresAt: Type.String({ format: 'date-time', description: 'When the session ends unless it is used again before then (the earlier of its idle and its absolute expiry).' }),
  },
  { description: 'The signed-in person of this browser session.' },
);
export type CurrentSession = Static<typeof CurrentSessionSchema>;

export const SessionSchema = Type.Object({
  object: Type.Literal('session'),
  id: Type.String(),
  method: Type.String({ description: 'How the person signed in: password, passkey, oidc, saml, magic-link or invite.' }),
  device: Type.Optional(Type.String({ description: 'The browser and system, as its user agent said ("Firefox on Linux").' })),
  ip: Type.Optional(Type.String({ description: 'The address it was last used from.' })),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.String({ format: 'date-time', description: 'To the minute.' }),
  expiresAt: Type.String({ format: 'date-time' }),
  current: Type.Boolean({ description: 'Whether this is the session of the request.' }),
});

export const SessionParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 100 }) });

export const EndedSessionsSchema = Type.Object({ ended: Type.Integer({ description: 'How many sessions were ended.' }) });

export const EndSessionsQuery = Type.Object({
  keepCurrent: Type.Optional(Type.Boolean({ description: 'Keep the session of this request (default false: sign out everywhere, here included).' })),
});
